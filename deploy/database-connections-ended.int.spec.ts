import { randomUUID } from 'node:crypto';
import { DATABASE_SERVICES, type DatabaseService } from '@pp/platform';
import { buildNotice, signEmail, TestStack, testDkimKey, waitFor, WebhookReceiver, writeDnsOverrides } from '@pp/testing';
import type { Pool } from 'pg';
import type { ProvisionedMerchantView } from '../apps/gateway/src/identity/identity.views';
import { GatewayClient } from '../apps/gateway/src/testing/gateway-client';

/*
 * A Postgres restart, a failover or an operator ends every connection the
 * services hold, most of them idle in a pool (docs/OPERATIONS.md). No service
 * may die of it: each pool drops the ended connections and the next query
 * connects anew; the ledger's publisher and the gateway's key cache open
 * their listening connections again. Here every connection to the stack's
 * database is ended at once, and then a session is created, paid in test mode
 * and by a signed e-mail, and its webhooks delivered, as before.
 */

const SHOP_ADDRESS = 'payments@ended.example';

interface Session {
  id: string;
  memo: string;
}

describe('every service outlives the database server ending its connections', () => {
  let stack: TestStack;
  let db: Pool;
  let receiver: WebhookReceiver;
  let gateway: GatewayClient;
  let shop: ProvisionedMerchantView;

  const createSession = async (token: string, amount: number): Promise<Session> => {
    const body = { amount, currency: 'cad', reference: `order-${randomUUID()}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' };
    const created = await gateway.call<Session>('/v1/checkout/sessions', { token, body });
    expect(created.status).toBe(201);
    return created.body;
  };
  /** A test-mode session paid by the simulator, and a live one by a signed e-mail; resolves once both webhooks and the live payment are in. */
  const payBothWays = async (round: 'before' | 'after') => {
    const { rows: [{ n: eventsBefore }] } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger.merchant_events WHERE merchant_id = $1 AND NOT livemode`, [shop.merchant_id]);
    const test = await createSession(shop.keys.test_secret, 1500);
    const simulated = await gateway.call('/v1/sandbox/simulate-payment', { token: shop.keys.test_secret, body: { sessionId: test.id, outcome: 'confirmed' } });
    expect(simulated.status).toBe(200);
    const live = await createSession(shop.keys.live_secret, 2500);
    const raw = await signEmail(
      buildNotice({ to: SHOP_ADDRESS, message: live.memo, amount: '$25.00', messageId: `<${round}.${stack.namespace}@payments.interac.ca>`, reference: `C1E${stack.namespace.slice(-5)}${round === 'before' ? 1 : 2}` }),
    );
    const posted = await gateway.call('/v1/internal/ingest-email', { token: stack.env.INGEST_TOKEN, body: raw, headers: { 'content-type': 'message/rfc822' } });
    expect(posted.status).toBe(202);
    await waitFor(`the ${round} live payment from its e-mail`, async () => {
      const { rows } = await db.query(`SELECT 1 FROM ledger.payments WHERE session_id = $1 AND status = 'CONFIRMED'`, [live.id]);
      return rows.length === 1;
    }, { timeoutMs: 30_000 });
    // The simulated payment adds test-mode events for the merchant; every one of them, old and new, reaches the endpoint.
    await waitFor(`the ${round} test payment's webhooks`, async () => {
      const { rows } = await db.query<{ id: string }>(`SELECT id FROM ledger.merchant_events WHERE merchant_id = $1 AND NOT livemode`, [shop.merchant_id]);
      const delivered = new Set(receiver.received('/hooks').map((delivery) => delivery.eventId));
      return rows.length > eventsBefore && rows.every((row) => delivered.has(row.id)) && rows.length;
    }, { timeoutMs: 30_000 });
  };

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['ledger', 'sessions', 'refunds', 'ingest', 'webhooks', 'gateway'],
      label: 'connended',
      startTimeoutMs: 60_000,
      env: { INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()) },
    });
    db = await stack.sql();
    receiver = await WebhookReceiver.start();
    gateway = new GatewayClient(stack);
    shop = await gateway.createMerchant('Ended');
    const patched = await gateway.call(`/v1/admin/merchants/${shop.merchant_id}`, { method: 'PATCH', token: gateway.adminToken, body: { etransfer_email: SHOP_ADDRESS } });
    expect(patched.status).toBe(200);
    const endpoint = await gateway.call<{ secret: string }>('/v1/webhook_endpoints', { token: shop.keys.test_secret, body: { url: receiver.url('/hooks') } });
    expect(endpoint.status).toBe(201);
    receiver.trust('/hooks', endpoint.body.secret);
  }, 180_000);

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it('given every connection ended while the services idle, when the work goes on: no service exits, and sessions are created, paid and notified', async () => {
    // Every service's pools, and the listening connections, are open and idle after a first round.
    await payBothWays('before');
    const { rows: connected } = await db.query<{ application_name: string }>(
      `SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database() AND application_name <> ''`,
    );
    const names = connected.map((row) => row.application_name);
    expect(names).toEqual(expect.arrayContaining([...DATABASE_SERVICES, 'ledger-append', 'ledger-publisher'] satisfies Array<DatabaseService | string>));

    const { rows: ended } = await db.query<{ pid: number; ended: boolean }>(
      `SELECT pid, pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    expect(ended.length).toBeGreaterThanOrEqual(names.length);
    expect(ended.every((row) => row.ended)).toBe(true);
    await waitFor('the ended connections to be gone', async () => {
      const { rows } = await db.query(`SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1)`, [ended.map((row) => row.pid)]);
      return rows.length === 0;
    });

    await payBothWays('after');
    expect(stack.processes().filter((proc) => !proc.running).map((proc) => proc.service)).toEqual([]);
  }, 120_000);
});
