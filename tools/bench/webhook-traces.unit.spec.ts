import type { CollectedSpan } from '@pp/testing';
import { timedWebhookTraces } from './webhook-traces';

/** A delivery attempt's span, in trace `traceId`, of event `eventId`. */
const attempt = (traceId: string, eventId: string, { attempt = 1, service = 'webhooks', name = 'webhook payment.confirmed' } = {}): CollectedSpan => ({
  service,
  name,
  kind: 3,
  traceId,
  spanId: `${traceId}-attempt`,
  parentSpanId: `${traceId}-consume`,
  links: [],
  attributes: { 'webhook.event_id': eventId, 'webhook.endpoint_id': 'we_1', 'webhook.attempt': attempt },
  startMs: 1_000,
  endMs: 1_010,
});

describe("the webhook path's traces (BENCH_TRACE)", () => {
  it('given the warm-up payments\' traces beside the timed ones, when the traces are taken, then only the timed payments\' are', () => {
    const spans = [attempt('warm-1', 'evt_w1'), attempt('warm-2', 'evt_w2'), attempt('timed-1', 'evt_t1'), attempt('timed-2', 'evt_t2')];

    expect(timedWebhookTraces(spans, ['evt_t1', 'evt_t2'])).toEqual(new Set(['timed-1', 'timed-2']));
  });

  it("given a timed event's retry (a trace of its own, from the retry on), then only its first attempt's trace is taken", () => {
    const spans = [attempt('payment', 'evt_t1'), attempt('retry', 'evt_t1', { attempt: 2 })];

    expect(timedWebhookTraces(spans, ['evt_t1'])).toEqual(new Set(['payment']));
  });

  it("given another event's delivery or another service's span with the event's id, then neither is taken", () => {
    const spans = [attempt('completed', 'evt_t1', { name: 'webhook checkout.session.completed' }), attempt('elsewhere', 'evt_t1', { service: 'gateway' })];

    expect(timedWebhookTraces(spans, ['evt_t1'])).toEqual(new Set());
  });
});
