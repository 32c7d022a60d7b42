import { type TestStack, waitFor, WebhookReceiver } from '@pp/testing';
import { createSessions, type GatewayApi, inParallel } from './api';
import { idlePercentBetween, readMachineCpuTimes } from './machine-idle';
import { costPerRequest, monotonicUs, type PathCost, type ProcessCpu } from './process-cpu';
import { serviceCostBetween } from './service-scrape';

export interface FanoutResult {
  payments: number;
  endpoints: number;
  deliveries: number;
  expected_deliveries: number;
  deliveries_per_second: number;
  unverified: number;
  /** From the first delivery received to the last. */
  elapsed_ms: number;
}

const PUBLICATION_TIMEOUT_MS = 60_000;

/**
 * Webhook fan-out (PRODUCT-RULES §5): how fast the webhooks service works off
 * a backlog of merchant events, each to several endpoints of one merchant at
 * a local receiver, each endpoint subscribed to every event, and no other
 * endpoint (the latency path deletes its own).
 *
 * The webhooks service is stopped while the payments are simulated (16 at a
 * time, two events each: payment.confirmed and checkout.session.completed)
 * and until the ledger has published them all; then it starts, and the rate
 * is timed from the first delivery the receiver gets to the last. So the
 * figure is the delivery path alone (consume, record, claim, sign, POST,
 * record the outcome), not the rate at which payments can be simulated,
 * which the create-session paths measure. CPU is counted from the moment the
 * service is ready (its start-up is not a delivery's cost), per delivery
 * received after that moment.
 */
export async function measureWebhookFanout(
  stack: TestStack,
  api: GatewayApi,
  cpu: ProcessCpu,
  payments: number,
  endpoints: number,
  timeoutMs = 120_000,
): Promise<{ result: FanoutResult } & PathCost> {
  const receiver = await WebhookReceiver.start();
  const endpointIds: string[] = [];
  try {
    const paths = Array.from({ length: endpoints }, (_, i) => `/bench-fanout-${i}`);
    for (const path of paths) {
      const endpoint = await api<{ id: string; secret: string }>('/v1/webhook_endpoints', { url: receiver.url(path) });
      endpointIds.push(endpoint.id);
      receiver.trust(path, endpoint.secret);
    }
    const sessions = await createSessions(api, payments, 'bench-fanout');
    await stack.stopService('webhooks');
    await inParallel(sessions, 16, (session) => api('/v1/sandbox/simulate-payment', { sessionId: session.id, outcome: 'confirmed' }));
    await waitForPublication(stack);

    const expected = payments * 2 * endpoints;
    // Counted as they arrive (a redelivery of the same event to the same endpoint counts once).
    const unique = new Set<string>();
    let read = 0;
    const delivered = () => {
      const records = receiver.received();
      for (; read < records.length; read++) unique.add(`${records[read].path} ${records[read].eventId}`);
      return unique.size;
    };
    await stack.startService('webhooks');
    const deliveredBeforeSample = delivered();
    const scrapedBefore = await cpu.scrapeServices();
    const before = await cpu.sample();
    const windowFrom = monotonicUs();
    const machineBefore = readMachineCpuTimes();
    const deadline = Date.now() + timeoutMs;
    while (delivered() < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const coresIdle = idlePercentBetween(machineBefore, readMachineCpuTimes());
    const window: [number, number] = [windowFrom, monotonicUs()];
    const after = await cpu.sample();
    const scrapedAfter = await cpu.scrapeServices();
    const count = delivered();
    const times = receiver.received().map((delivery) => delivery.receivedAt);
    const elapsed = Math.max(...times) - Math.min(...times);
    return {
      result: {
        payments,
        endpoints,
        deliveries: count,
        expected_deliveries: expected,
        deliveries_per_second: elapsed > 0 ? Math.round(((count - 1) / elapsed) * 1000) : 0,
        unverified: receiver.received().filter((delivery) => !delivery.verification.valid).length,
        elapsed_ms: Math.round(elapsed),
      },
      ...costPerRequest(before, after, count - deliveredBeforeSample),
      ...serviceCostBetween(scrapedBefore, scrapedAfter, count - deliveredBeforeSample),
      cores_idle_percent: coresIdle,
      profile_window_us: window,
    };
  } finally {
    for (const id of endpointIds) await api(`/v1/webhook_endpoints/${id}`, undefined, 'DELETE');
    await receiver.close();
  }
}

/** Until the ledger's publisher has put every stored event on JetStream. */
async function waitForPublication(stack: TestStack): Promise<void> {
  const db = await stack.sql();
  // The publisher's order is (transaction_id, position); its checkpoint is the last event it published.
  await waitFor(
    'the ledger to publish its events',
    async () =>
      (
        await db.query<{ published: boolean }>(
          `SELECT NOT EXISTS (
             SELECT 1 FROM ledger.events e, ledger.publication_checkpoints c
              WHERE c.publisher = 'jetstream' AND (e.transaction_id, e.position) > (c.transaction_id, c.position)
           ) AS published`,
        )
      ).rows[0]?.published,
    { timeoutMs: PUBLICATION_TIMEOUT_MS },
  );
}
