import { createContextKey } from '@opentelemetry/api';
import { processContext } from '../telemetry/process-context';

/** What follows one request through a process: its id and the time by which its caller gives up. */
export interface RequestContext {
  requestId: string;
  /** Epoch milliseconds after which nobody waits for the answer. */
  deadline?: number;
}

const REQUEST = createContextKey('pp.request-context');

/** Kept in the process's one async context, beside the active span (telemetry/process-context.ts). */
export const requestContext = {
  run<T>(context: RequestContext, fn: () => T): T {
    return processContext.with(processContext.active().setValue(REQUEST, context), fn);
  },
  current(): RequestContext | undefined {
    return processContext.active().getValue(REQUEST) as RequestContext | undefined;
  },
};

/**
 * How long a call made now may wait: its own timeout, or less when the request it serves must be answered sooner
 * (0 or less: that time has passed, and the call should not be made).
 */
export function callTimeoutMs(ownMs: number, now = Date.now()): number {
  const deadline = requestContext.current()?.deadline;
  return deadline ? Math.min(ownMs, deadline - now) : ownMs;
}
