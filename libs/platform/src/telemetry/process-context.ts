import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/**
 * The process's one async context: OpenTelemetry's active context, which
 * also carries the request context (logging/request-context.ts) as a value.
 * One AsyncLocalStorage instead of two, because before Node 24 every enabled
 * AsyncLocalStorage taxes every promise the process creates (about 0.25 µs
 * each on Node 20, docs/PERFORMANCE.md "One async context"). startTelemetry
 * registers it as the global context manager; the request context works
 * through it whether or not telemetry was started.
 */
export const processContext = new AsyncLocalStorageContextManager();
