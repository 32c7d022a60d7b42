import { randomUUID } from 'node:crypto';
import type { CheckoutSessionCreatedView } from '@pp/contracts';
import { sampleSum, scrape, TestStack } from '@pp/testing';
import type { Pool } from 'pg';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { type CallResult, GatewayClient } from '../testing/gateway-client';

/*
 * A merchant's mode keeps at most IDEMPOTENCY_KEPT_BYTES_PER_SCOPE of answers in Redis for replays of the POSTs whose
 * service records the key with its change: here about two session creations' worth. Past it, such answers are not
 * kept, and a retry is answered by the ledger, which recorded the key with the session: the same session, never a
 * second one. The other POSTs (a test session expired now) are kept whatever the bytes, since nothing else would
 * answer their retry as the first time. Another merchant keeps its own bytes.
 */
const KEPT_BYTES = 2_000;

describe('the bytes of answers a merchant keeps for Idempotency-Key replays', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let merchantA: ProvisionedMerchantView;
  let merchantB: ProvisionedMerchantView;
  let db: Pool;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'sessions', 'ledger'], label: 'keptbytes', env: { IDEMPOTENCY_KEPT_BYTES_PER_SCOPE: String(KEPT_BYTES) } });
    gateway = new GatewayClient(stack);
    [merchantA, merchantB] = [await gateway.createMerchant('A'), await gateway.createMerchant('B')];
    db = await stack.sql();
  });
  afterAll(() => stack?.stop());

  const notKept = async () => sampleSum(await scrape(stack.metricsUrl('gateway')), 'pp_gateway_idempotency_answers_not_kept_total');
  const create = (key: string, idempotencyKey: string, reference: string): Promise<CallResult<CheckoutSessionCreatedView>> =>
    gateway.call<CheckoutSessionCreatedView>('/v1/checkout/sessions', {
      token: key,
      idempotencyKey,
      body: { amount: 2500, currency: 'cad', reference, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cancel' },
    });
  const sessionsWith = async (reference: string) => (await db.query<{ id: string }>('SELECT id FROM ledger.checkout_sessions WHERE reference = $1', [reference])).rows;

  it('given a merchant past its kept bytes, when a request is retried, then the kept ones replay from Redis and the others from the ledger: the same session each time, never a second; a POST no service records is still kept; another merchant keeps its own', async () => {
    const before = await notKept();
    const firsts: Array<{ idempotencyKey: string; reference: string; first: CallResult<CheckoutSessionCreatedView> }> = [];
    for (let i = 0; i < 5; i++) {
      const idempotencyKey = randomUUID();
      const reference = `order-${randomUUID()}`;
      const first = await create(merchantA.keys.test_secret, idempotencyKey, reference);
      expect(first.status).toBe(201);
      firsts.push({ idempotencyKey, reference, first });
    }
    // Each answer is about 800 bytes sealed: the first two fit.
    expect(await notKept()).toBe(before + 3);

    for (const { idempotencyKey, reference, first } of firsts) {
      const again = await create(merchantA.keys.test_secret, idempotencyKey, reference);
      expect([again.status, again.headers.get('x-cache-lookup')]).toEqual([200, 'HIT']);
      expect(again.body.id).toBe(first.body.id);
      expect(await sessionsWith(reference)).toEqual([{ id: first.body.id }]);
    }
    // The two kept replayed from Redis; the three others were answered by the ledger, and again not kept.
    expect(await notKept()).toBe(before + 6);

    // Past the bytes, an expiry (no service records its key) is still kept: its retry replays it, not a second answer.
    const expiryKey = randomUUID();
    const expire = () =>
      gateway.call<{ id: string; status: string }>('/v1/sandbox/expire-session', { token: merchantA.keys.test_secret, idempotencyKey: expiryKey, body: { sessionId: firsts[4].first.body.id } });
    const expired = await expire();
    expect([expired.status, expired.body.status]).toEqual([200, 'EXPIRED']);
    const expiredAgain = await expire();
    expect([expiredAgain.status, expiredAgain.headers.get('x-cache-lookup'), expiredAgain.text]).toEqual([200, 'HIT', expired.text]);
    expect(await notKept()).toBe(before + 6);

    const idempotencyKey = randomUUID();
    const reference = `order-${randomUUID()}`;
    const other = await create(merchantB.keys.test_secret, idempotencyKey, reference);
    expect(other.status).toBe(201);
    const otherAgain = await create(merchantB.keys.test_secret, idempotencyKey, reference);
    expect([otherAgain.status, otherAgain.headers.get('x-cache-lookup'), otherAgain.body.id]).toEqual([200, 'HIT', other.body.id]);
    expect(await notKept()).toBe(before + 6);
  });
});
