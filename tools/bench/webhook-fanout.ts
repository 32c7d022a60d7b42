import { type TestStack, waitFor, WebhookReceiver } from '@pp/testing';
import { createSessions, type GatewayApi, inParallel } from './api';
import { spanOrNull } from './empty-figures';
import { errorText } from './path-runner';
import { CpuWindow, type PathCost, type ProcessCpu } from './process-cpu';
import type { QuietWait } from './quiet-wait';

export interface FanoutResult {
  payments: number;
  endpoints: number;
  /** Distinct deliveries (event and endpoint) received, verified or not: what the CPU figures are divided by. */
  deliveries: number;
  /** Distinct deliveries whose signatures verified: what the rate counts. */
  verified_deliveries: number;
  expected_deliveries: number;
  /** Verified deliveries a second (success-counts.ts). */
  deliveries_per_second: number;
  /** Deliveries received whose signatures did not verify (each attempt; should be 0). */
  unverified: number;
  /** From the first delivery received to the last; null when none was. */
  elapsed_ms: number | null;
  /** The wait for the stack to go quiet before the webhooks service started again (quiet-wait.ts), when one was asked for. */
  quiet_wait?: QuietWait;
}

const PUBLICATION_TIMEOUT_MS = 60_000;

/**
 * The fan-out's CPU window has no settle after its timed work (CpuWindow's default is a second): its figures were
 * taken so from the start, and a settle second would both add its CPU and count the deliveries made in it.
 */
export const FANOUT_SETTLE_MS = 0;

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
 * service is ready (its start-up is not a delivery's cost) until the wait for
 * the deliveries ends, with no settle after it (unlike the other paths'
 * windows: the fan-out has been measured so since before CpuWindow, and its
 * recorded figures stay comparable), per delivery received after the first CPU sample.
 * `settle` runs just before the service starts
 * (the bench waits there for the stack to go quiet: the simulated payments'
 * projections are not the deliveries' work). Should anything fail while the
 * service is stopped, it is started again before the error goes on, so the
 * rest of the run has its webhooks.
 */
export async function measureWebhookFanout(
  stack: TestStack,
  api: GatewayApi,
  cpu: ProcessCpu,
  payments: number,
  endpoints: number,
  { timeoutMs = 120_000, settle }: { timeoutMs?: number; settle?: () => Promise<QuietWait> } = {},
): Promise<{ result: FanoutResult } & PathCost> {
  const receiver = await WebhookReceiver.start();
  const endpointIds: string[] = [];
  let stopped = false;
  try {
    const paths = Array.from({ length: endpoints }, (_, i) => `/bench-fanout-${i}`);
    for (const path of paths) {
      const endpoint = await api<{ id: string; secret: string }>('/v1/webhook_endpoints', { url: receiver.url(path) });
      endpointIds.push(endpoint.id);
      receiver.trust(path, endpoint.secret);
    }
    const sessions = await createSessions(api, payments, 'bench-fanout');
    await stack.stopService('webhooks');
    stopped = true;
    await inParallel(sessions, 16, (session) => api('/v1/sandbox/simulate-payment', { sessionId: session.id, outcome: 'confirmed' }));
    await waitForPublication(stack);

    const expected = payments * 2 * endpoints;
    // Counted as they arrive (a redelivery of the same event to the same endpoint counts once), and apart, those
    // that verified: one that did not is answered 401 and attempted again.
    const unique = new Set<string>();
    const verified = new Set<string>();
    let read = 0;
    const delivered = () => {
      const records = receiver.received();
      for (; read < records.length; read++) {
        const id = `${records[read].path} ${records[read].eventId}`;
        unique.add(id);
        if (records[read].verification.valid) verified.add(id);
      }
      return unique.size;
    };
    const quietWait = await settle?.();
    await stack.startService('webhooks');
    stopped = false;
    // Deliveries start as the service does: those made before the first CPU sample (the window scrapes the
    // services' metrics first) are not divided into the CPU, as the CPU they took is not in it.
    let deliveredBeforeSample = 0;
    // No settle (FANOUT_SETTLE_MS): the window closes as the wait ends, the CPU sampled at once.
    const window = await CpuWindow.open(cpu, { settleMs: FANOUT_SETTLE_MS, atFirstSample: () => (deliveredBeforeSample = delivered()) });
    const deadline = Date.now() + timeoutMs;
    while (delivered() < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    // The deliveries the CPU is divided by are counted just after its last sample; the rate and the verified ones
    // then, as before CpuWindow.
    let count = 0;
    const cost = await window.close(() => (count = delivered()) - deliveredBeforeSample);
    const elapsed = spanOrNull(receiver.received().map((delivery) => delivery.receivedAt));
    return {
      result: {
        payments,
        endpoints,
        deliveries: count,
        verified_deliveries: verified.size,
        expected_deliveries: expected,
        // n deliveries span n - 1 gaps.
        deliveries_per_second: elapsed !== null && elapsed > 0 && verified.size > 0 ? Math.round(((verified.size - 1) / elapsed) * 1000) : 0,
        unverified: receiver.received().filter((delivery) => !delivery.verification.valid).length,
        elapsed_ms: elapsed === null ? null : Math.round(elapsed),
        ...(quietWait ? { quiet_wait: quietWait } : {}),
      },
      ...cost,
    };
  } catch (error) {
    // Failed while the service was stopped: started again, or it would stay down for the rest of the run. The
    // path's error is the one that counts; should the start fail too, that is said on stderr.
    if (stopped) {
      await stack.startService('webhooks').catch((startError: unknown) => {
        process.stderr.write(`bench: warning: the webhooks service, stopped for the fan-out, did not start again (${errorText(startError)}): the rest of the run has no webhooks\n`);
      });
    }
    throw error;
  } finally {
    try {
      for (const id of endpointIds) await api(`/v1/webhook_endpoints/${id}`, undefined, 'DELETE');
    } finally {
      await receiver.close();
    }
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
