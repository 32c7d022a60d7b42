import { type Context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';

/**
 * What is kept of a trace context from a sender the platform does not
 * trust: its trace id and span id, so that the sender's trace still finds
 * the work. Not its sampled flag: whether the work is recorded stays the
 * platform's decision (its samplers record a sampled remote parent exactly
 * when they record a root), so no sender keeps its messages out of the
 * traces. Nor its tracestate, which every later hop would carry and every
 * event's metadata and webhook keep. The gateway takes an HTTP caller's
 * context so (apps/gateway/src/http/request-span.ts), the ingest the mail
 * relay's (consumeTraced's `untrustedPublisher`).
 */
export function untrustedParent(sent: Context): Context {
  const sender = trace.getSpanContext(sent);
  if (!sender || !trace.isSpanContextValid(sender)) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: sender.traceId, spanId: sender.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
}
