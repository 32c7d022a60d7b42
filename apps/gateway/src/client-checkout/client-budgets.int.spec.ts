import { randomBytes, randomUUID } from 'node:crypto';
import { TestStack, testInfra } from '@pp/testing';
import Redis from 'ioredis';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient, type CallResult } from '../testing/gateway-client';

/*
 * The publishable key is public: junk on it (unknown client secrets, wrong
 * keys) must not use up the merchant's embedded checkout. Addresses come from
 * X-Forwarded-For, believed because the test talks to the gateway from
 * loopback (TRUSTED_PROXIES defaults to loopback). The checkout app's path:
 * apps/checkout/src/embed/payer-budgets.int.spec.ts.
 */

const ADDRESS_LIMIT = 5;
const SESSION_LIMIT = 2;
const KEY_LIMIT = 4;

const junkSecret = () => `c${randomBytes(12).toString('hex')}_secret_${randomBytes(16).toString('hex')}`;
const statuses = (results: Array<CallResult>) => results.map((result) => result.status);
const count = (results: Array<CallResult>, status: number) => results.filter((result) => result.status === status).length;

describe('client-side checkout budgets', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let merchant: ProvisionedMerchantView;
  let creator: string;
  let redis: Redis;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger'],
      label: 'clientbudgets',
      env: {
        RATE_LIMIT_TEST_PER_SECOND: String(KEY_LIMIT),
        CLIENT_RATE_LIMIT_PER_ADDRESS_PER_SECOND: String(ADDRESS_LIMIT),
        CLIENT_RATE_LIMIT_PER_SESSION_PER_SECOND: String(SESSION_LIMIT),
      },
    });
    gateway = new GatewayClient(stack);
    merchant = await gateway.createMerchant('Embedded Merchant');
    creator = (await gateway.issueKey(merchant.merchant_id, { type: 'secret', livemode: false, rate_limit_per_second: 1000 })).key;
    redis = new Redis(testInfra.redisUrl);
  });
  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  const newSession = async (): Promise<{ id: string; client_secret: string }> => {
    const created = await gateway.call<{ id: string; client_secret: string }>('/v1/checkout/sessions', {
      token: creator,
      body: { amount: 2500, currency: 'cad', reference: `order-${randomUUID()}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' },
    });
    expect(created.status).toBe(201);
    return created.body;
  };

  const open = (key: string, secret: string, address: string) =>
    gateway.call('/v1/client/checkout_session', { token: key, headers: { 'x-client-secret': secret, 'x-forwarded-for': address } });

  it('answers a client secret of no secret’s shape (too long, malformed) 404, as an unknown one, without naming the command behind it', async () => {
    for (const [secret, address] of [
      [`c${'a'.repeat(40)}_secret_${'A1'.repeat(140)}`, '198.51.100.31'],
      ['nope', '198.51.100.32'],
    ]) {
      expect(await open(merchant.keys.test_publishable, secret, address)).toMatchObject({ status: 404, body: { error: 'Checkout session not found' } });
    }
  });

  it('throttles junk from one address while a payer from another address still loads the session', async () => {
    const session = await newSession();
    const junk = await Promise.all(Array.from({ length: 3 * ADDRESS_LIMIT }, () => open(merchant.keys.test_publishable, junkSecret(), '203.0.113.7')));
    // At most ADDRESS_LIMIT per one-second window; a burst straddling two windows gets at most twice that.
    expect(count(junk, 429)).toBeGreaterThanOrEqual(ADDRESS_LIMIT);
    expect(count(junk, 404) + count(junk, 429)).toBe(junk.length);
    expect(junk.find((result) => result.status === 429)?.body).toEqual({ error: 'Rate limit exceeded' });

    const payer = await open(merchant.keys.test_publishable, session.client_secret, '198.51.100.20');
    expect(payer.status).toBe(200);
    expect(payer.body).toMatchObject({ id: session.id, status: 'PENDING' });
  });

  it('does not spend the key’s budget on lookups that fail, so junk from many addresses never locks the key out', async () => {
    const session = await newSession();
    // Three times the key's per-second budget, each from its own address: under the old shared budget most would be 429.
    const junk = await Promise.all(Array.from({ length: 3 * KEY_LIMIT }, (_, i) => open(merchant.keys.test_publishable, junkSecret(), `192.0.2.${i + 1}`)));
    expect(statuses(junk)).toEqual(Array(junk.length).fill(404));

    const payer = await open(merchant.keys.test_publishable, session.client_secret, '198.51.100.21');
    expect(payer.status).toBe(200);
    expect(payer.headers.get('x-ratelimit-limit')).toBe(String(KEY_LIMIT));
  });

  it('counts wrong keys against the address they come from', async () => {
    const wrongKey = `pp_pub_test_${randomBytes(16).toString('hex')}`;
    const junk = await Promise.all(Array.from({ length: 3 * ADDRESS_LIMIT }, () => open(wrongKey, junkSecret(), '203.0.113.8')));
    expect(count(junk, 429)).toBeGreaterThanOrEqual(ADDRESS_LIMIT);
    expect(count(junk, 401) + count(junk, 429)).toBe(junk.length);
  });

  it('budgets each session on its own, across addresses', async () => {
    const session = await newSession();
    const opens = await Promise.all(Array.from({ length: 4 * SESSION_LIMIT }, (_, i) => open(merchant.keys.test_publishable, session.client_secret, `198.51.100.${100 + i}`)));
    expect(count(opens, 200)).toBeGreaterThanOrEqual(SESSION_LIMIT);
    expect(count(opens, 200)).toBeLessThanOrEqual(2 * SESSION_LIMIT);
    expect(count(opens, 200) + count(opens, 429)).toBe(opens.length);
  });

  it('keeps the key’s own limit for sessions that did open', async () => {
    const key = (await gateway.issueKey(merchant.merchant_id, { type: 'publishable', livemode: false, rate_limit_per_second: 1 })).key;
    const sessions = await Promise.all(Array.from({ length: 5 }, () => newSession()));
    const opens = await Promise.all(sessions.map((session, i) => open(key, session.client_secret, `198.51.100.${200 + i}`)));
    expect(count(opens, 200)).toBeGreaterThanOrEqual(1);
    expect(count(opens, 200)).toBeLessThanOrEqual(2);
    expect(count(opens, 429)).toBe(opens.length - count(opens, 200));
  });

  it('spends the key’s budget once per session opened, so whoever holds a few client secrets cannot lock the merchant’s other payers out', async () => {
    const key = (await gateway.issueKey(merchant.merchant_id, { type: 'publishable', livemode: false })).key;
    const held = await Promise.all([newSession(), newSession()]);
    // Each held session opened as often as its own budget allows: four opens, the key's whole budget if each counted.
    const again = await Promise.all(held.flatMap((session, s) => Array.from({ length: SESSION_LIMIT }, (_, i) => open(key, session.client_secret, `198.51.100.${150 + 2 * s + i}`))));
    expect(count(again, 200)).toBe(held.length * SESSION_LIMIT);
    expect(again.filter((result) => result.headers.get('x-ratelimit-limit') !== null)).toHaveLength(held.length);

    const payer = await open(key, (await newSession()).client_secret, '198.51.100.160');
    expect(payer.status).toBe(200);
    expect(payer.headers.get('x-ratelimit-limit')).toBe(String(KEY_LIMIT));
  });

  it('given an open refused over the key’s budget, then its session is not marked counted, so its retry is counted again; another key’s open of a session is its own', async () => {
    const key = (await gateway.issueKey(merchant.merchant_id, { type: 'publishable', livemode: false })).key;
    const other = (await gateway.issueKey(merchant.merchant_id, { type: 'publishable', livemode: false })).key;
    const [first, second] = await Promise.all([newSession(), newSession()]);
    const marksOf = async (sessionId: string) => {
      const found: string[] = [];
      for await (const batch of redis.scanStream({ match: `${stack.namespace}:gateway:ratelimit:*:first:session:${sessionId}`, count: 1000 }) as AsyncIterable<string[]>) found.push(...batch);
      return found;
    };
    expect((await open(key, first.client_secret, '198.51.100.170')).status).toBe(200);
    const [mark] = await marksOf(first.id);
    // The key's counter, spent for the next five seconds: whatever the clock, the next count is over the limit.
    const counter = mark.slice(0, -`:first:session:${first.id}`.length);
    await redis.set(counter, String(KEY_LIMIT), 'PX', 5000);

    expect((await open(key, second.client_secret, '198.51.100.171')).status).toBe(429);
    expect(await marksOf(second.id)).toEqual([]);
    await redis.del(counter);
    const retried = await open(key, second.client_secret, '198.51.100.172');
    expect({ status: retried.status, limit: retried.headers.get('x-ratelimit-limit') }).toEqual({ status: 200, limit: String(KEY_LIMIT) });
    expect(await marksOf(second.id)).toHaveLength(1);

    const byOther = await open(other, first.client_secret, '198.51.100.173');
    expect({ status: byOther.status, limit: byOther.headers.get('x-ratelimit-limit') }).toEqual({ status: 200, limit: String(KEY_LIMIT) });
    expect(await marksOf(first.id)).toHaveLength(2);
  });

  it('does not spend the key’s budget on server-side requests it is refused, so a stolen publishable key cannot lock payers out', async () => {
    const key = (await gateway.issueKey(merchant.merchant_id, { type: 'publishable', livemode: false })).key;
    const session = await newSession();
    const body = { amount: 2500, currency: 'cad', reference: `order-${randomUUID()}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' };
    // Five times the key's per-second budget on each of two server-side routes, which refuse publishable keys.
    const flood = await Promise.all([
      ...Array.from({ length: 5 * KEY_LIMIT }, () => gateway.call('/v1/payments', { token: key })),
      ...Array.from({ length: 5 * KEY_LIMIT }, () => gateway.call('/v1/checkout/sessions', { token: key, body })),
    ]);
    expect(statuses(flood)).toEqual(Array(flood.length).fill(403));

    const payer = await open(key, session.client_secret, '198.51.100.22');
    expect(payer.status).toBe(200);
    expect(payer.headers.get('x-ratelimit-remaining')).toBe(String(KEY_LIMIT - 1));
  });
});

describe('client-side checkout budgets behind no trusted proxy', () => {
  let stack: TestStack;
  let merchant: ProvisionedMerchantView;
  let gateway: GatewayClient;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway'],
      label: 'clientbudgetsnoproxy',
      env: { TRUSTED_PROXIES: 'none', CLIENT_RATE_LIMIT_PER_ADDRESS_PER_SECOND: String(ADDRESS_LIMIT) },
    });
    gateway = new GatewayClient(stack);
    merchant = await gateway.createMerchant();
  });
  afterAll(() => stack?.stop());

  it('ignores X-Forwarded-For from an untrusted peer, so a forged address buys no extra budget', async () => {
    const results = await Promise.all(
      Array.from({ length: 3 * ADDRESS_LIMIT }, (_, i) =>
        gateway.call('/v1/client/checkout_session', {
          token: merchant.keys.test_publishable,
          headers: { 'x-client-secret': junkSecret(), 'x-forwarded-for': `203.0.113.${i + 1}` },
        }),
      ),
    );
    // Every request counts against the socket's address; those that pass reach the (absent) sessions service.
    expect(count(results, 429)).toBeGreaterThanOrEqual(ADDRESS_LIMIT);
    expect(count(results, 503) + count(results, 429)).toBe(results.length);
  });
});
