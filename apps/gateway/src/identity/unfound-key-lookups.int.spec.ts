import { newSessionId } from '@pp/kernel';
import { connectNats } from '@pp/platform';
import { sampleSum, scrape, TestStack, waitFor } from '@pp/testing';
import type { NatsConnection } from 'nats';
import type { Pool } from 'pg';
import { GatewayClient, type CallResult } from '../testing/gateway-client';
import { generateApiKey } from './api-key';
import type { ProvisionedMerchantView } from './identity.views';
import { unfoundKeyLookupLimits } from './unfound-key-lookups';

/*
 * Lookups of API keys a gateway has not found before are bounded per replica,
 * whatever the number of client addresses: DATABASE_POOL_SIZE=2 gives one
 * lookup at a time and LINE_PER_SLOT waiting. The key table is locked, so the
 * lookup under way and the ones in line wait for it; guesses past them are
 * refused at once. Each guess comes from its own address (X-Forwarded-For,
 * believed from loopback), so no address's own budget is spent. The harness
 * answers the sessions service's reads: 404 means the key was accepted.
 * The tests run in order: the second restarts the gateway the first used.
 */

const POOL_SIZE = 2;
const { slots, line } = unfoundKeyLookupLimits(POOL_SIZE);
const PAST_THE_LINE = 3;

describe('lookups of unknown API keys, bounded per gateway', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let db: Pool;
  let harness: NatsConnection;
  let merchant: ProvisionedMerchantView;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'unfoundkeys', env: { DATABASE_POOL_SIZE: String(POOL_SIZE) } });
    gateway = new GatewayClient(stack);
    db = await stack.sql();
    harness = await connectNats(stack.env.NATS_URL!, 'unfound-key-lookups-spec');
    harness.subscribe(`${stack.namespace}.sessions.get.v1`, {
      callback: (_error, msg) => msg.respond(JSON.stringify({ ok: false, error: { code: 'NOT_FOUND', message: 'Checkout session not found' } })),
    });
    await harness.flush();
    merchant = await gateway.createMerchant();
  });
  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
  });

  const retrieve = (key: string, address: string) =>
    gateway.call(`/v1/checkout/sessions/${newSessionId()}`, { token: key, headers: { 'x-forwarded-for': address } });

  const refusals = async () => sampleSum(await scrape(stack.metricsUrl('gateway')), 'pp_gateway_key_lookups_refused_total');

  /** Every slot and place in line taken by guesses from their own addresses while the key table is locked, and PAST_THE_LINE more; `meanwhile` runs before the lock ends. */
  const flood = async (meanwhile: () => Promise<void>): Promise<CallResult[]> => {
    const locker = await db.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE gateway.api_keys IN ACCESS EXCLUSIVE MODE');
    const answered: CallResult[] = [];
    const pending: Array<Promise<unknown>> = [];
    try {
      // The first in the slot and then the line, in order of arrival, so that only the last ones find no place.
      for (let i = 0; i < slots + line + PAST_THE_LINE; i++) {
        pending.push(retrieve(generateApiKey({ type: 'secret', livemode: true }), `198.51.100.${i + 1}`).then((result) => answered.push(result)));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      for (let tries = 0; tries < 100 && answered.length < PAST_THE_LINE; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 300)); // nothing else answers while the table is locked

      expect(answered.map((result) => result.status)).toEqual(Array(PAST_THE_LINE).fill(503));
      for (const refused of answered) {
        expect(refused.body).toEqual({ error: 'Service unavailable' });
        expect(refused.headers.get('retry-after')).toBe('1');
        expect(refused.headers.get('x-request-id')).toMatch(/\S/);
      }
      await meanwhile();
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    await Promise.all(pending);
    return answered;
  };

  it('given every lookup slot and place in line taken by unknown keys, when more come from other addresses, then 503 with Retry-After at once, counted; a known key still answers; the ones in line get their 401 once the database answers', async () => {
    expect(slots).toBe(1);
    expect(await refusals()).toBe(0);
    // The merchant's key, found (and cached for API_KEY_CACHE_TTL_MS) before the flood.
    expect((await retrieve(merchant.keys.test_secret, '192.0.2.1')).status).toBe(404);

    const answered = await flood(async () => {
      // A key this gateway found before does not wait behind the guesses.
      expect((await retrieve(merchant.keys.test_secret, '192.0.2.1')).status).toBe(404);
    });

    const statuses = answered.map((result) => result.status);
    expect(statuses.filter((status) => status === 503)).toHaveLength(PAST_THE_LINE);
    expect(statuses.filter((status) => status === 401)).toHaveLength(slots + line);
    expect(await refusals()).toBe(PAST_THE_LINE);
  });

  it('given a gateway just restarted, when guesses fill its line, then a key used lately is known from the start: it waits for the database, not refused', async () => {
    // The first test's request recorded the key's use (off its path: waited for here).
    await waitFor('the key’s last use recorded', async () => {
      const { rows } = await db.query<{ used: boolean }>('SELECT last_used_at IS NOT NULL AS used FROM gateway.api_keys WHERE merchant_id = $1 AND livemode = false AND type = $2', [
        merchant.merchant_id,
        'secret',
      ]);
      return rows[0]?.used === true;
    });
    await stack.stopService('gateway');
    await stack.startService('gateway');

    let known: Promise<CallResult> | undefined;
    await flood(async () => {
      known = retrieve(merchant.keys.test_secret, '192.0.2.1');
      // Past the line, an unknown key is refused at once; this one is still waiting on the locked table.
      const first = await Promise.race([known, new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]);
      expect(first).toBe('waiting');
    });
    expect((await known!).status).toBe(404);
  });
});
