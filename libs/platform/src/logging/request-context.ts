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
