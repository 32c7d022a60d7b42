import { type Context, context, type Link, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';

/**
 * W3C trace context (traceparent, tracestate) as a plain object, for places
 * no instrumentation reaches: an event's metadata, a BullMQ job's data.
 */
export type TraceCarrier = Record<string, string>;

/** The carrier of `ctx` (by default the active context); empty when no span is active. */
export function traceCarrier(ctx: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The context a carrier describes (a remote parent), or the root context for none. */
export const contextOf = (carrier: TraceCarrier | null | undefined): Context =>
  carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;

/** Links to the spans the given contexts hold; contexts without a span add none. */
export function linksTo(...contexts: Context[]): Link[] {
  return contexts.flatMap((ctx) => {
    const spanContext = trace.getSpanContext(ctx);
    return spanContext && trace.isSpanContextValid(spanContext) ? [{ context: spanContext }] : [];
  });
}
