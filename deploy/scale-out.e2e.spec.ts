import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ServiceName } from '@pp/contracts';
import { buildNotice, REPO_ROOT, ServiceProcess, signEmail, TestStack, testDkimKey, waitFor, WebhookReceiver, writeDnsOverrides } from '@pp/testing';
import type { Pool } from 'pg';

/*
 * Scale-out (docs/OPERATIONS.md "Scaling"): two replicas of every service
 * against one Postgres, NATS and Redis. Requests alternate between the two
 * gateways, and the same request often reaches both at once; sessions,
 * payments (simulated and from signed e-mails), refunds (test mode and a live
 * one walked through every admin stage) and test-mode webhooks all flow, and the
 * invariants hold: one payment per session, one SUCCESS per event and
 * endpoint, one payment.refunded per refund.
 */

const SERVICES: readonly ServiceName[] = ['ledger', 'sessions', 'refunds', 'ingest', 'webhooks', 'gateway'];
const TEST_SESSIONS = 24;
const LIVE_SESSIONS = 4;
const SHOP_ADDRESS = 'payments@scale.example';

interface Merchant {
  merchant_id: string;
  keys: { test_secret: string; live_secret: string };
}
interface Reply<T> {
  status: number;
  body: T;
}
interface Session {
  id: string;
  memo: string;
}

describe('two replicas of every service', () => {
  let stack: TestStack;
  let db: Pool;
  let receiver: WebhookReceiver;
  let shop: Merchant;
  let gateways: string[];
  const replicas: ServiceProcess[] = [];

  /** One HTTP call to the i-th gateway (alternating when i counts up). */
  const call = async <T>(i: number, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> => {
    const response = await fetch(`${gateways[i % 2]}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'idempotency-key': randomUUID(), 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const admin = <T>(i: number, path: string, body?: unknown) => call<T>(i, path, stack.env.ADMIN_TOKEN, body);
  const createSession = async (i: number, token: string, amount: number): Promise<Session> => {
    const created = await call<Session>(i, '/v1/checkout/sessions', token, {
      amount,
      currency: 'cad',
      reference: `order-${randomUUID()}`,
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/no',
    });
    expect(created.status).toBe(201);
    return created.body;
  };
  const rows = async <T>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows as T[];

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['ledger'],
      label: 'scaleout',
      startTimeoutMs: 60_000,
      env: {
        INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()),
        RATE_LIMIT_LIVE_PER_SECOND: '5000',
        RATE_LIMIT_TEST_PER_SECOND: '5000',
        // Eight database clients share the test Postgres (max_connections 100) with other spec files.
        DATABASE_POOL_SIZE: '5',
      },
    });
    // One process at a time: a dozen Node processes booting at once on 2 cores miss their readiness deadline.
    for (const service of SERVICES.filter((name) => name !== 'ledger')) await stack.startService(service);
    for (const service of SERVICES) {
      const replica = new ServiceProcess(service, await stack.envFor(service), join(REPO_ROOT, 'tmp', 'test-logs', stack.namespace, 'replica'));
      replicas.push(replica);
      await replica.start(60_000);
    }
    gateways = [stack.url('gateway'), `http://127.0.0.1:${replicas.find((replica) => replica.service === 'gateway')!.port}`];
    db = await stack.sql();
    receiver = await WebhookReceiver.start();
    const created = await admin<Merchant>(0, '/v1/admin/merchants', { name: 'Scale', email: `${randomUUID()}@example.com` });
    expect(created.status).toBe(201);
    shop = created.body;
    expect((await fetch(`${gateways[1]}/v1/admin/merchants/${shop.merchant_id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ etransfer_email: SHOP_ADDRESS }),
    })).status).toBe(200);
    // Test mode: live endpoints must use https, which the local receiver does not speak.
    const endpoint = await call<{ secret: string }>(1, '/v1/webhook_endpoints', shop.keys.test_secret, { url: receiver.url('/hooks') });
    expect(endpoint.status).toBe(201);
    receiver.trust('/hooks', endpoint.body.secret);
  }, 600_000);

  afterAll(async () => {
    await receiver?.close();
    await Promise.all(replicas.map((replica) => replica.stop()));
    await stack?.stop();
  });

  it('keeps every invariant while both replicas of each service share the work', async () => {
    // Sessions through both gateways; an idempotent replay on the other gateway answers the same session.
    const sessions = await Promise.all(Array.from({ length: TEST_SESSIONS }, (_, i) => createSession(i, shop.keys.test_secret, 1000 + i)));
    const replayKey = randomUUID();
    const replayBody = { amount: 777, currency: 'cad', reference: `replay-${randomUUID()}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' };
    const replays = await Promise.all([0, 1].map((i) => call<Session>(i, '/v1/checkout/sessions', shop.keys.test_secret, replayBody, { 'idempotency-key': replayKey })));
    expect(replays.map((reply) => reply.status).filter((status) => status === 201)).not.toHaveLength(0);
    expect(new Set(replays.filter((reply) => reply.status === 201).map((reply) => reply.body.id)).size).toBe(1);

    // Each session paid from both gateways at once: exactly one of the two wins.
    const simulated = await Promise.all(
      sessions.map((session) =>
        Promise.all([0, 1].map((i) => call<{ transaction?: { id: string } }>(i, '/v1/sandbox/simulate-payment', shop.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' }))),
      ),
    );
    const payments = simulated.map((pair) => pair.filter((reply) => reply.status === 200).map((reply) => reply.body.transaction!.id));
    expect(payments.map((ids) => ids.length)).toEqual(sessions.map(() => 1));

    // Live payments from signed e-mails, each posted to both gateways at once.
    const live = await Promise.all(Array.from({ length: LIVE_SESSIONS }, (_, i) => createSession(i, shop.keys.live_secret, 2000 + i)));
    const ingested = await Promise.all(
      live.map(async (session, i) => {
        const raw = await signEmail(buildNotice({ to: SHOP_ADDRESS, message: session.memo, amount: `$${((2000 + i) / 100).toFixed(2)}`, messageId: `<scale${i}.${stack.namespace}@payments.interac.ca>`, reference: `C1S${stack.namespace.slice(-5)}${i}` }));
        return Promise.all([0, 1].map((g) => call<{ status: string }>(g, '/v1/internal/ingest-email', stack.env.INGEST_TOKEN, raw, { 'content-type': 'message/rfc822' })));
      }),
    );
    expect(ingested.flat().map((reply) => reply.status)).toEqual(ingested.flat().map(() => 202));

    // Test refunds for half the payments, each requested on both gateways at once; test mode completes them.
    const refunded = payments.slice(0, TEST_SESSIONS / 2).map((ids) => ids[0]);
    const refundReplies = await Promise.all(refunded.map((id) => Promise.all([0, 1].map((i) => call<{ id: string }>(i, '/v1/refunds', shop.keys.test_secret, { payment_id: id })))));
    const refundIds = refundReplies.flatMap((pair) => pair.filter((reply) => reply.status === 201).map((reply) => reply.body.id));
    expect(refundIds).toHaveLength(refunded.length);

    // One live refund through every admin stage, each stage on the other gateway.
    const livePayment = await waitFor('the live payments from e-mail', async () => {
      const found = await rows<{ id: string; status: string }>(`SELECT id, status FROM ledger.payments WHERE livemode AND merchant_id = $1`, [shop.merchant_id]);
      return found.length === LIVE_SESSIONS && found.every((payment) => payment.status === 'CONFIRMED') && found[0];
    }, { timeoutMs: 60_000 });
    const liveRefund = await call<{ id: string }>(0, '/v1/refunds', shop.keys.live_secret, { payment_id: livePayment.id });
    expect(liveRefund.status).toBe(201);
    expect((await admin(1, `/v1/admin/refunds/${liveRefund.body.id}/approve`, {})).status).toBe(200);
    expect((await admin(0, `/v1/admin/refunds/${liveRefund.body.id}/mark-sent`, {})).status).toBe(200);
    const completed = await admin<{ status: string }>(1, `/v1/admin/refunds/${liveRefund.body.id}/complete`, { outbound_reference: 'CAxyz123', evidence_note: 'sent by e-Transfer' });
    expect(completed).toMatchObject({ status: 200, body: { status: 'COMPLETED' } });

    // Invariants, read from the stores once the work has settled.
    const allRefunds = [...refundIds, liveRefund.body.id];
    await waitFor('every refund to complete with payment.refunded', async () => {
      const [{ n }] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM ledger.events WHERE type = 'payment.refunded'`);
      return n >= allRefunds.length;
    }, { timeoutMs: 60_000 });
    expect(await rows(`SELECT session_id FROM ledger.payments WHERE session_id IS NOT NULL GROUP BY session_id HAVING count(*) > 1`)).toEqual([]);
    expect(await rows(`SELECT data->>'session_id' AS session_id FROM ledger.events WHERE type = 'payment.confirmed' GROUP BY 1 HAVING count(*) > 1`)).toEqual([]);
    const [{ n: paid }] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM ledger.payments WHERE merchant_id = $1`, [shop.merchant_id]);
    expect(paid).toBe(TEST_SESSIONS + LIVE_SESSIONS); // the replayed session stays unpaid
    // The payment stream's fact names the refund; the merchant-visible payment.refunded names the payment (one refund per payment).
    const refundFacts = await rows<{ refund_id: string; n: number }>(`SELECT data->>'refund_id' AS refund_id, count(*)::int AS n FROM ledger.events WHERE type = 'transaction.refunded' GROUP BY 1`);
    expect(refundFacts.map((row) => row.refund_id).sort()).toEqual([...allRefunds].sort());
    expect(refundFacts).toEqual(expect.arrayOf(expect.objectContaining({ n: 1 })));
    const refundedEvents = await rows<{ payment_id: string; n: number }>(`SELECT data->>'payment_id' AS payment_id, count(*)::int AS n FROM ledger.events WHERE type = 'payment.refunded' GROUP BY 1`);
    expect(refundedEvents.map((row) => row.payment_id).sort()).toEqual([...refunded, livePayment.id].sort());
    expect(refundedEvents).toEqual(expect.arrayOf(expect.objectContaining({ n: 1 })));
    const refundRows = await rows<{ status: string }>(`SELECT status FROM ledger.refunds WHERE merchant_id = $1`, [shop.merchant_id]);
    expect(refundRows.map((row) => row.status)).toEqual(allRefunds.map(() => 'COMPLETED'));

    // Every test-mode merchant event reaches the endpoint, each exactly once.
    const merchantEvents = await waitFor('every event delivered', async () => {
      const events = await rows<{ id: string }>(`SELECT id FROM ledger.merchant_events WHERE merchant_id = $1 AND NOT livemode`, [shop.merchant_id]);
      const [{ n }] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE status = 'SUCCESS'`);
      return n === events.length && events;
    }, { timeoutMs: 60_000 });
    expect(await rows(`SELECT event_id, endpoint_id FROM webhooks.delivery_attempts WHERE delivery_status = 'SUCCESS' GROUP BY 1, 2 HAVING count(*) > 1`)).toEqual([]);
    const received = receiver.received('/hooks');
    expect(received.map((delivery) => delivery.answeredStatus)).toEqual(received.map(() => 200));
    expect(received.map((delivery) => delivery.eventId).sort()).toEqual(merchantEvents.map((event) => event.id).sort());
  }, 300_000);
});
