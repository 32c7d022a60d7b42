import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/** Modules the instrumentations patch; see registerClientInstrumentations. */
const PATCHED_MODULES = ['node:http', 'node:https', 'pg', 'pg-pool', 'ioredis'];

/**
 * Client spans for outgoing HTTP (webhook attempts), Postgres queries and
 * Redis commands (BullMQ included). Each one needs a parent span: the
 * publisher's polls, BullMQ's blocking reads and other background chatter
 * would otherwise start a trace of their own every few milliseconds.
 * Incoming HTTP is left alone: the gateway opens its own server span, named
 * after the route (apps/gateway/src/http/request-span.ts).
 *
 * This module is loaded only when an OTLP endpoint is configured, so a
 * service that exports nothing neither loads nor runs any of it.
 */
export function registerClientInstrumentations(): void {
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true, requireParentforOutgoingSpans: true }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  // runService loads a service's module tree (its service-parts, and with them pg and ioredis) before
  // startService starts telemetry. require-in-the-middle patches a module the next time it is required, and these patch
  // prototypes and module objects in place, so requiring them again here reaches the copies already in use.
  for (const name of PATCHED_MODULES) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- re-require to patch, see above
      require(name);
    } catch {
      // a service without Postgres or Redis may not resolve the module; nothing to patch then
    }
  }
}
