import type { CollectedSpan } from '@pp/testing';

/**
 * The webhook path's traces (BENCH_TRACE): those of its timed payments only. The collector also holds the
 * warm-up payments' traces, which the row's latencies leave out: counted, the slowest trace and the slowest 5 %
 * could explain a tail the measured p99 never had. A delivery's span carries its event's id, and the receiver
 * got the same id with each timed payment's verified delivery (webhook-latency.ts).
 */

const DELIVERY_SPAN = 'webhook payment.confirmed';

/**
 * The traces holding the first delivery attempt of one of `timedEventIds`: each is the trace of the simulate-payment
 * request that caused it. A later attempt starts a trace of its own (apps/webhooks, delivery-attempt.job.ts), which
 * starts at the retry, not at the payment.
 */
export function timedWebhookTraces(spans: readonly CollectedSpan[], timedEventIds: readonly string[]): Set<string> {
  const timed = new Set(timedEventIds);
  return new Set(
    spans
      .filter(
        (span) =>
          span.service === 'webhooks' &&
          span.name === DELIVERY_SPAN &&
          span.attributes['webhook.attempt'] === 1 &&
          timed.has(String(span.attributes['webhook.event_id'])),
      )
      .map((span) => span.traceId),
  );
}

/**
 * The spans of the payment.confirmed webhook's own path: the other events of the same append are published and
 * consumed beside it, and taking a pooled connection is a step too short to cut the path at.
 */
export function onWebhookPath(span: CollectedSpan): boolean {
  if (span.name === 'pg-pool.connect') return false;
  return !/^(publish|consume) /.test(span.name) || span.name.endsWith('.payment.confirmed');
}
