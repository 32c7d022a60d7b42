import { type Context, context } from '@opentelemetry/api';
import { requestContext } from '@pp/platform';

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

/** Runs `work` in the origin's trace context and under its request id (what DeliveryQueue.enqueue gives the jobs it queues). */
export const withinOrigin = <T>(origin: AttemptOrigin, work: () => T): T =>
  context.with(origin.queuedBy, () => requestContext.run({ requestId: origin.requestId }, work));
