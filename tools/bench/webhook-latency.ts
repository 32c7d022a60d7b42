import { randomUUID } from 'node:crypto';
import { type ReceivedWebhook, receivedNow, WebhookReceiver } from '@pp/testing';
import { gatewayApi } from './api';
import { summarizeLatencies, toTenths } from './latency-summary';

export interface LatencyResult {
  samples: number;
  /** Payments sent the same way before the timed ones, untimed. */
  warmup_payments: number;
  p50_ms: number;
  p99_ms: number;
  /** The slowest timed payment. */
  max_ms: number;
  /** Deliveries whose signatures did not verify (should be 0): not timed, as a merchant would refuse them; their payment is timed to a verified delivery. */
  unverified: number;
  /** The events of the timed payments' verified deliveries, the warm-up's left out: whose traces BENCH_TRACE breaks down (webhook-traces.ts). */
  timed_event_ids: string[];
}

const PATH = '/bench-latency';
/**
 * Payments sent and delivered, untimed, before the timed ones: the first payments after the paths before
 * this one meet the webhook path cold (its code not yet optimised, its connections not yet open), and one of
 * 200 is a whole percentile.
 */
export const WEBHOOK_WARMUP_PAYMENTS = 10;

/**
 * simulate-payment → signed payment.confirmed at a local receiver (PRODUCT-RULES
 * §D6): one payment at a time, each timed from sending the request to the
 * receiver getting the webhook whose signature verifies, matched by session id (an
 * unverified delivery is answered 401 and counted apart, and the wait goes
 * on for the attempt that verifies), after
 * WEBHOOK_WARMUP_PAYMENTS sent the same way untimed; with `gapMs`, each
 * payment after that long a pause, as a merchant with sparse traffic sends
 * them (what idles out between them is then paid by each). The endpoint is
 * deleted afterwards, so the paths after this one (the fan-out) do not keep
 * sending to a receiver that is gone.
 */
export async function measureWebhookLatency(
  gatewayUrl: string,
  key: string,
  payments: number,
  { gapMs = 0, timeoutMs = 30_000 }: { gapMs?: number; timeoutMs?: number } = {},
): Promise<LatencyResult> {
  const receiver = await WebhookReceiver.start();
  const api = gatewayApi(gatewayUrl, key);
  let endpointId: string | undefined;
  try {
    const endpoint = await api<{ id: string; secret: string }>('/v1/webhook_endpoints', { url: receiver.url(PATH), enabled_events: ['payment.confirmed'] });
    endpointId = endpoint.id;
    receiver.trust(PATH, endpoint.secret);
    const sessions: string[] = [];
    for (let i = 0; i < WEBHOOK_WARMUP_PAYMENTS + payments; i++) {
      const session = await api<{ id: string }>('/v1/checkout/sessions', {
        amount: 1000 + i,
        currency: 'cad',
        reference: `bench-webhook-${randomUUID()}`,
        success_url: 'https://merchant.example/thanks',
        cancel_url: 'https://merchant.example/cart',
      });
      sessions.push(session.id);
    }
    /** One payment at a time, from its request to the receiver getting its webhook; and that webhook's event. */
    const pay = async (sessionId: string): Promise<{ latency: number; eventId: string | undefined }> => {
      const arrival = receiver.whenReceived((record) => isVerifiedDeliveryOf(sessionId, record), timeoutMs);
      const sentAt = receivedNow();
      await api('/v1/sandbox/simulate-payment', { sessionId, outcome: 'confirmed' });
      const delivery = await arrival;
      return { latency: delivery.receivedAt - sentAt, eventId: delivery.eventId };
    };
    for (const sessionId of sessions.slice(0, WEBHOOK_WARMUP_PAYMENTS)) await pay(sessionId);
    const latencies: number[] = [];
    const timedEventIds: string[] = [];
    for (const sessionId of sessions.slice(WEBHOOK_WARMUP_PAYMENTS)) {
      if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      // One at a time: latency, not queueing.
      const { latency, eventId } = await pay(sessionId);
      latencies.push(latency);
      if (eventId !== undefined) timedEventIds.push(eventId);
    }
    return {
      samples: latencies.length,
      warmup_payments: WEBHOOK_WARMUP_PAYMENTS,
      // To a tenth of a millisecond, as the target (p50 ≤ 10 ms) is near it.
      ...summarizeLatencies(latencies, toTenths),
      unverified: receiver.received(PATH).filter((delivery) => !delivery.verification.valid).length,
      timed_event_ids: timedEventIds,
    };
  } finally {
    if (endpointId) await api(`/v1/webhook_endpoints/${endpointId}`, undefined, 'DELETE');
    await receiver.close();
  }
}

/**
 * Whether `record` is a delivery of `sessionId`'s payment to the bench's path whose signature verified: the one a
 * payment is timed to. One that did not verify was answered 401 and is attempted again; it is counted in `unverified`.
 */
export function isVerifiedDeliveryOf(sessionId: string, record: ReceivedWebhook): boolean {
  // The byte search first: whenReceived also looks through every earlier delivery, which then costs no JSON parse each.
  return record.path === PATH && record.verification.valid && record.rawBody.includes(sessionId) && sessionOf(record) === sessionId;
}

/** The session a delivery is about. */
function sessionOf(record: ReceivedWebhook): string | undefined {
  return (JSON.parse(record.rawBody.toString('utf8')) as { data: { session_id?: string } }).data.session_id;
}
