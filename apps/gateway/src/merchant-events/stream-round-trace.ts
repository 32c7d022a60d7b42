import { type Span, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { inSpan, linksTo } from '@pp/platform';

/**
 * Runs one round of an event stream (its key check, its look at the log, its
 * sends) as a trace of its own, linked to the request that opened the
 * stream: a stream stays open for hours and looks every few seconds, and as
 * children of the request its rounds would grow one trace without end
 * (docs/ARCHITECTURE.md, Tracing).
 */
export function inStreamRound<T>(opened: Span | undefined, work: () => Promise<T>): Promise<T> {
  const links = opened ? linksTo(trace.setSpan(ROOT_CONTEXT, opened)) : [];
  return inSpan('pp-gateway', 'event stream round', { kind: SpanKind.INTERNAL, links }, work, ROOT_CONTEXT);
}
