import { newSessionId } from '@pp/kernel';
import { TestStack } from '@pp/testing';
import type { Pool } from 'pg';
import { GatewayClient } from '../testing/gateway-client';
import { generateApiKey } from './api-key';
import { TOO_MANY_FAILED_ATTEMPTS } from './failed-authentication.budget';
import type { ProvisionedMerchantView } from './identity.views';

/*
 * Every well-formed key the gateway does not hold costs a Postgres lookup, so
 * a client address may fail GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE times
 * and is then refused such keys without one. Addresses come from
 * X-Forwarded-For, believed because the test talks to the gateway from
 * loopback. API_KEY_CACHE_TTL_MS=0 makes the gateway read an accepted key's
 * row on every request, so a key that passes a spent budget does so because
 * the gateway found it before, not by a cache hit. "Without a lookup" is
 * shown with the key table locked: a lookup would wait for the lock.
 */

const BUDGET = 3;
/** Far longer than a refusal takes; reached only by a request that waits for the locked key table. */
const LOOKUP_WAIT_MS = 5_000;

describe('failed API key authentications per client address', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let db: Pool;
  let merchant: ProvisionedMerchantView;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway'],
      label: 'failedauth',
      env: { GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE: String(BUDGET), API_KEY_CACHE_TTL_MS: '0' },
    });
    gateway = new GatewayClient(stack);
    db = await stack.sql();
    merchant = await gateway.createMerchant();
  });
  afterAll(() => stack?.stop());

  /** A checkout route: 503 once the key is accepted (no sessions service runs), 401 when it is refused. */
  const retrieve = (key: string, address: string) =>
    gateway.call(`/v1/checkout/sessions/${newSessionId()}`, { token: key, headers: { 'x-forwarded-for': address } });
  const statusesOf = async (keys: string[], address: string) => {
    const statuses = [];
    for (const key of keys) statuses.push((await retrieve(key, address)).status);
    return statuses;
  };
  const guesses = (count: number) => Array.from({ length: count }, () => generateApiKey({ type: 'secret', livemode: true }));

  /** Runs `request` while gateway.api_keys is locked, and fails if it waited for the lock (it looked a key up). */
  const withoutLookup = async <T>(request: () => Promise<T>): Promise<T> => {
    const locker = await db.connect();
    let timer: NodeJS.Timeout | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE gateway.api_keys IN ACCESS EXCLUSIVE MODE');
      const waited = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the request waited for the locked key table: the gateway looked the key up')), LOOKUP_WAIT_MS);
      });
      return await Promise.race([request(), waited]);
    } finally {
      clearTimeout(timer);
      await locker.query('ROLLBACK');
      locker.release();
    }
  };

  it('given an address whose unknown keys spent its budget, when it presents another, then 429 with Retry-After, without a database lookup', async () => {
    expect(await statusesOf(guesses(BUDGET), '203.0.113.40')).toEqual(Array(BUDGET).fill(401));

    const refused = await withoutLookup(() => retrieve(guesses(1)[0]!, '203.0.113.40'));

    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: TOO_MANY_FAILED_ATTEMPTS });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-request-id')).toMatch(/\S/);
    // Another address still has its own budget.
    expect(await statusesOf(guesses(1), '203.0.113.41')).toEqual([401]);
  });

  it('given a spent address, when it presents keys it used before, then they still authenticate; a key it never used waits for the minute', async () => {
    const used = await Promise.all(Array.from({ length: BUDGET + 1 }, () => gateway.issueKey(merchant.merchant_id, { type: 'secret', livemode: false })));
    const usedKeys = used.map((issued) => issued.key);
    // More keys that authenticate than the budget: none of them is charged.
    expect(await statusesOf(usedKeys, '203.0.113.42')).toEqual(Array(BUDGET + 1).fill(503));
    expect(await statusesOf(guesses(BUDGET + 1), '203.0.113.42')).toEqual([...Array(BUDGET).fill(401), 429]);

    expect(await statusesOf(usedKeys, '203.0.113.42')).toEqual(Array(BUDGET + 1).fill(503));
    const unused = await gateway.issueKey(merchant.merchant_id, { type: 'secret', livemode: false });
    expect(await statusesOf([unused.key], '203.0.113.42')).toEqual([429]);
    expect(await statusesOf([unused.key], '203.0.113.43')).toEqual([503]);
  });
});
