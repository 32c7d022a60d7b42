import { performance } from 'node:perf_hooks';
import { WebhookReceiver } from '@pp/testing';
import { type GatewayApi, inParallel } from './api';

export interface FanoutResult {
  payments: number;
  endpoints: number;
  deliveries: number;
  expected_deliveries: number;
  deliveries_per_second: number;
  unverified: number;
  elapsed_ms: number;
}

/**
 * Webhook fan-out (PRODUCT-RULES §5): several endpoints of one merchant at a
 * local receiver, each subscribed to every event; payments simulated 16 at a
 * time, each raising two events (payment.confirmed and
 * checkout.session.completed). Timed from the first simulated payment until
 * the receiver has every (event, endpoint) delivery.
 */
export async function measureWebhookFanout(api: GatewayApi, payments: number, endpoints: number, timeoutMs = 120_000): Promise<FanoutResult> {
  const receiver = await WebhookReceiver.start();
  try {
    const paths = Array.from({ length: endpoints }, (_, i) => `/bench-fanout-${i}`);
    for (const path of paths) {
      const endpoint = await api<{ secret: string }>('/v1/webhook_endpoints', { url: receiver.url(path) });
      receiver.trust(path, endpoint.secret);
    }
    const sessions = await inParallel(Array.from({ length: payments }), 16, async (_, i) =>
      api<{ id: string }>('/v1/checkout/sessions', {
        amount: 1000 + i,
        currency: 'cad',
        reference: `bench-fanout-${i}`,
        success_url: 'https://merchant.example/thanks',
        cancel_url: 'https://merchant.example/cart',
      }),
    );
    const expected = payments * 2 * endpoints;
    const delivered = () => new Set(paths.flatMap((path) => receiver.received(path).map((delivery) => `${path} ${delivery.eventId}`))).size;
    const started = performance.now();
    await inParallel(sessions, 16, (session) => api('/v1/sandbox/simulate-payment', { sessionId: session.id, outcome: 'confirmed' }));
    const deadline = Date.now() + timeoutMs;
    let count = delivered();
    while (count < expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      count = delivered();
    }
    const last = Math.max(...paths.flatMap((path) => receiver.received(path).map((delivery) => delivery.receivedAt)));
    const elapsed = last - (performance.timeOrigin + started);
    return {
      payments,
      endpoints,
      deliveries: count,
      expected_deliveries: expected,
      deliveries_per_second: Math.round((count / elapsed) * 1000),
      unverified: paths.flatMap((path) => receiver.received(path)).filter((delivery) => !delivery.verification.valid).length,
      elapsed_ms: Math.round(elapsed),
    };
  } finally {
    await receiver.close();
  }
}
