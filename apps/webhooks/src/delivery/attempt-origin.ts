import { randomUUID } from 'node:crypto';
import { type Context, context } from '@opentelemetry/api';
import { isWellFormedRequestId, requestContext } from '@pp/platform';

/**
 * Where a delivery's attempts come from: the context that queued them (the
 * parent of a first attempt's span, a link of a later one's) and the id of
 * the request behind them, under which every line the delivery logs is
 * written, so an operator can follow a request from the API to the merchant's
 * endpoint.
 */
export interface AttemptOrigin {
  queuedBy: Context;
  requestId: string;
}

/**
 * The request id to log a delivery's work under: the one given (an event's
 * correlation_id, a queued job's request_id) when well formed, as the platform
 * keeps a caller's, else a new one, so the delivery's lines still go together.
 */
export const deliveryRequestId = (offered: unknown): string => (isWellFormedRequestId(offered) ? offered : randomUUID());

/** Runs `work` in the origin's trace context and under its request id (what DeliveryQueue.enqueue gives the jobs it queues). */
export const withinOrigin = <T>(origin: AttemptOrigin, work: () => T): T =>
  context.with(origin.queuedBy, () => requestContext.run({ requestId: origin.requestId }, work));
