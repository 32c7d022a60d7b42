import { randomUUID } from 'node:crypto';
import { TestStack, waitFor } from '@pp/testing';
import { MAX_BODY_COUNTED_WITH_RESERVATION } from './key-rate-limiter';
import { MAX_ACTIVE_KEYS_PER_MODE } from '../identity/merchant-provisioning.service';
import { GatewayClient } from '../testing/gateway-client';

describe('rate limit per API key', () => {
  let stack: TestStack;
  let gateway: GatewayClient;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'ratelimit', env: { RATE_LIMIT_TEST_PER_SECOND: '4' } });
    gateway = new GatewayClient(stack);
  });
  afterAll(() => stack?.stop());

  const retrieve = (key: string) => gateway.call('/v1/checkout/sessions/clx0000000000000000000000', { token: key });

  it('answers a burst over the limit with 429 and Retry-After, and serves the next window', async () => {
    const merchant = await gateway.createMerchant();
    const key = (await gateway.issueKey(merchant.merchant_id, { type: 'secret', livemode: true, rate_limit_per_second: 3 })).key;

    const burst = await Promise.all(Array.from({ length: 10 }, () => retrieve(key)));
    const served = burst.filter((r) => r.status !== 429);
    const limited = burst.filter((r) => r.status === 429);
    // Exactly 3 per window; a burst that happens to straddle two windows is served at most twice that.
    expect(served.length).toBeGreaterThanOrEqual(3);
    expect(served.length).toBeLessThanOrEqual(6);
    expect(limited.length).toBe(10 - served.length);
    for (const response of limited) {
      expect(response.body).toEqual({ error: 'Rate limit exceeded' });
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.headers.get('x-ratelimit-limit')).toBe('3');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    expect(served.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(expect.arrayContaining(['0', '1', '2']));

    const next = await waitFor('the next window', async () => {
      const response = await retrieve(key);
      return response.status === 429 ? undefined : response;
    }, { timeoutMs: 3000, intervalMs: 250 });
    expect(next.status).toBe(503); // served: it passed the limiter and reached the (absent) sessions service
    expect(next.headers.get('x-ratelimit-limit')).toBe('3');
  });

  const session = { amount: 1250, currency: 'cad', reference: 'order-1', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' };
  const create = (key: string, idempotencyKey: string, body: object = session) =>
    gateway.call('/v1/checkout/sessions', { token: key, idempotencyKey, body });

  it('counts a POST with its Idempotency-Key reservation: over the limit, 429 and the key left free for the next window', async () => {
    const merchant = await gateway.createMerchant();
    const key = (await gateway.issueKey(merchant.merchant_id, { type: 'secret', livemode: true, rate_limit_per_second: 3 })).key;
    const keys = Array.from({ length: 10 }, () => randomUUID());

    const burst = await Promise.all(keys.map((idempotencyKey) => create(key, idempotencyKey)));
    const limited = keys.filter((_, i) => burst[i]!.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(4);
    expect(limited.length).toBeLessThanOrEqual(7); // 3 a window; a burst may straddle two
    for (const response of burst.filter((r) => r.status === 429)) {
      expect(response.body).toEqual({ error: 'Rate limit exceeded' });
      expect([response.headers.get('retry-after'), response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]).toEqual(['1', '3', '0']);
    }
    for (const response of burst.filter((r) => r.status !== 429)) {
      expect(response.status).toBe(503); // counted, reserved, and on to the (absent) sessions service
      expect(response.headers.get('x-ratelimit-limit')).toBe('3');
    }

    // Refused by the limit, the request reserved nothing: its key is not "still in progress" in the next window.
    const retried = await waitFor('the next window', async () => {
      const response = await create(key, limited[0]!);
      return response.status === 429 ? undefined : response;
    }, { timeoutMs: 3000, intervalMs: 250 });
    expect(retried.status).toBe(503);
  });

  it('counts a POST whose body is too long to wait for before it is read: over the limit, 429 without reading it', async () => {
    const merchant = await gateway.createMerchant();
    const key = (await gateway.issueKey(merchant.merchant_id, { type: 'secret', livemode: true, rate_limit_per_second: 2 })).key;
    const long = { ...session, metadata: { note: 'x'.repeat(MAX_BODY_COUNTED_WITH_RESERVATION) } };
    const burst = await Promise.all(Array.from({ length: 8 }, () => create(key, randomUUID(), long)));
    // Within the limit it is read and refused by validation; over it, refused before anything is read.
    expect(burst.filter((r) => r.status === 400).length).toBeGreaterThanOrEqual(2);
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(4);
    expect(burst.every((r) => r.status === 400 || r.status === 429)).toBe(true);
  });

  it('takes a test key’s default from RATE_LIMIT_TEST_PER_SECOND and counts each key on its own', async () => {
    const merchant = await gateway.createMerchant();
    const burst = await Promise.all(Array.from({ length: 6 }, () => retrieve(merchant.keys.test_secret)));
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1);
    expect(burst[0]!.headers.get('x-ratelimit-limit')).toBe('4');
    const other = await retrieve(merchant.keys.live_secret);
    expect(other.status).toBe(503);
    expect(other.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('caps the active keys of a merchant and mode, so minting keys does not multiply its rate limit; a revoked key frees its place', async () => {
    const merchant = await gateway.createMerchant();
    const issue = (livemode: boolean) =>
      gateway.call<{ id: string; error?: string }>(`/v1/admin/merchants/${merchant.merchant_id}/keys`, { token: stack.env.ADMIN_TOKEN!, body: { type: 'secret', livemode } });
    // Two keys per mode come with the merchant; the rest, issued two at a time, are counted one after the other.
    const issued = [];
    for (let i = 2; i < MAX_ACTIVE_KEYS_PER_MODE; i += 2) issued.push(...(await Promise.all([issue(true), issue(true)])));
    expect(issued.filter((answer) => answer.status === 201)).toHaveLength(MAX_ACTIVE_KEYS_PER_MODE - 2);
    expect(issued.filter((answer) => answer.status !== 201).map((answer) => [answer.status, answer.body.error])).toEqual(
      Array(issued.length - (MAX_ACTIVE_KEYS_PER_MODE - 2)).fill([400, `Validation failed: at most ${MAX_ACTIVE_KEYS_PER_MODE} active API keys per mode; revoke one first`]),
    );
    expect((await issue(true)).status).toBe(400);
    expect((await issue(false)).status).toBe(201);

    await gateway.revokeKey(issued.find((answer) => answer.status === 201)!.body.id);
    expect((await issue(true)).status).toBe(201);
    expect((await issue(true)).status).toBe(400);
  });
});
