import { randomUUID } from 'node:crypto';
import { TestStack } from '@pp/testing';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';

describe('Idempotency-Key on every POST (PRODUCT-RULES §D3)', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let merchant: ProvisionedMerchantView;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'idempotency' });
    gateway = new GatewayClient(stack);
    merchant = await gateway.createMerchant();
  });
  afterAll(() => stack?.stop());

  const listKeys = async () =>
    (await gateway.call<{ keys: Array<{ id: string }> }>(`/v1/admin/merchants/${merchant.merchant_id}`, { token: gateway.adminToken })).body.keys;

  it('executes 50 concurrent requests with one key exactly once; the rest get 409 or the replay', async () => {
    const keysBefore = (await listKeys()).length;
    const idempotencyKey = randomUUID();
    const send = () =>
      gateway.call(`/v1/admin/merchants/${merchant.merchant_id}/keys`, {
        token: gateway.adminToken,
        idempotencyKey,
        body: { type: 'restricted', livemode: true, scopes: ['payments.read'] },
      });
    const results = await Promise.all(Array.from({ length: 50 }, send));

    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    for (const other of results.filter((r) => r.status !== 201)) {
      if (other.status === 409) {
        expect(other.body).toEqual({ error: 'A request with this Idempotency-Key is still in progress' });
        expect(Number(other.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      } else {
        expect(other.status).toBe(200);
        expect(other.headers.get('x-cache-lookup')).toBe('HIT');
        expect(other.text).toBe(created[0]!.text);
      }
    }
    expect((await listKeys()).length).toBe(keysBefore + 1);

    const replay = await send();
    expect(replay.status).toBe(200);
    expect(replay.headers.get('x-cache-lookup')).toBe('HIT');
    expect(replay.text).toBe(created[0]!.text);
    expect(replay.headers.get('x-request-id')).not.toBe(created[0]!.headers.get('x-request-id'));
    expect((await listKeys()).length).toBe(keysBefore + 1);
  });

  it('refuses the same key with a different body, or on another route', async () => {
    const idempotencyKey = randomUUID();
    const path = `/v1/admin/merchants/${merchant.merchant_id}/keys`;
    const first = await gateway.call(path, { token: gateway.adminToken, idempotencyKey, body: { type: 'secret', livemode: false } });
    expect(first.status).toBe(201);
    const different = await gateway.call(path, { token: gateway.adminToken, idempotencyKey, body: { type: 'secret', livemode: true } });
    expect(different).toMatchObject({ status: 400, body: { error: 'Idempotency-Key reused with different parameters' } });
    const elsewhere = await gateway.call('/v1/admin/merchants', {
      token: gateway.adminToken,
      idempotencyKey,
      body: { type: 'secret', livemode: false },
    });
    expect(elsewhere).toMatchObject({ status: 400, body: { error: 'Idempotency-Key reused with different parameters' } });
  });

  it('treats bodies that differ only in key order as the same request', async () => {
    const idempotencyKey = randomUUID();
    const path = `/v1/admin/merchants/${merchant.merchant_id}/keys`;
    const first = await gateway.call(path, { token: gateway.adminToken, idempotencyKey, body: '{"type":"publishable","livemode":false}' });
    const again = await gateway.call(path, { token: gateway.adminToken, idempotencyKey, body: '{ "livemode": false, "type": "publishable" }' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('frees the key after a failed attempt so the corrected request can use it', async () => {
    const idempotencyKey = randomUUID();
    const path = `/v1/admin/merchants/${merchant.merchant_id}/keys`;
    const failed = await gateway.call(path, { token: gateway.adminToken, idempotencyKey, body: { type: 'secret', livemode: 'yes' } });
    expect(failed.status).toBe(400);
    const corrected = await gateway.call(path, { token: gateway.adminToken, idempotencyKey, body: { type: 'secret', livemode: 'yes' } });
    expect(corrected.status).toBe(400);
    expect(corrected.headers.get('x-cache-lookup')).toBeNull();
  });

  it('requires the header on every POST, and keeps keys of different scopes apart', async () => {
    const missing = await gateway.call('/v1/admin/merchants', {
      token: gateway.adminToken,
      idempotencyKey: null,
      body: { name: 'No Key', email: `${randomUUID()}@example.com` },
    });
    expect(missing).toMatchObject({ status: 400, body: { error: 'Validation failed: Idempotency-Key header is required' } });
    const tooLong = await gateway.call('/v1/admin/merchants', {
      token: gateway.adminToken,
      idempotencyKey: 'k'.repeat(256),
      body: { name: 'Long Key', email: `${randomUUID()}@example.com` },
    });
    expect(tooLong).toMatchObject({ status: 400, body: { error: 'Validation failed: Idempotency-Key must be at most 255 characters' } });

    // The same key value used by the admin and by a merchant's live and test keys: three independent requests.
    const shared = randomUUID();
    const checkout = { amount: 100, currency: 'cad', reference: 'r', success_url: 'https://a.example', cancel_url: 'https://a.example' };
    const asAdmin = await gateway.call(`/v1/admin/merchants/${merchant.merchant_id}/keys`, {
      token: gateway.adminToken,
      idempotencyKey: shared,
      body: { type: 'secret', livemode: true },
    });
    const asLive = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, idempotencyKey: shared, body: checkout });
    const asTest = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.test_secret, idempotencyKey: shared, body: checkout });
    expect(asAdmin.status).toBe(201);
    expect(asLive.status).toBe(503); // reached the bus: not taken for a reuse of the admin's key
    expect(asTest.status).toBe(503);
  });

  const sessionBody = { amount: 1250, currency: 'cad', reference: 'order-1', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' };
  it.each([
    ['a body that is not JSON', 'secret', { body: '{"amount": ' }, 400],
    ['a Content-Type other than JSON', 'secret', { body: 'amount=1250', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415],
    ['no Idempotency-Key', 'secret', { body: sessionBody, idempotencyKey: null }, 400],
    ['a key without the route’s scope', 'restricted', { body: sessionBody }, 403],
  ] as const)('counts POSTs refused before their reservation (%s) against the key’s rate limit: over it, 429', async (_refusal, type, request, status) => {
    const key = (await gateway.issueKey(merchant.merchant_id, { type, livemode: true, rate_limit_per_second: 3, ...(type === 'restricted' ? { scopes: ['payments.read'] } : {}) })).key;
    const burst = await Promise.all(Array.from({ length: 10 }, () => gateway.call('/v1/checkout/sessions', { token: key, ...request })));
    const limited = burst.filter((response) => response.status === 429);
    // 3 a window; a burst may straddle two.
    expect(limited.length).toBeGreaterThanOrEqual(4);
    expect(burst.every((response) => response.status === status || response.status === 429)).toBe(true);
    for (const response of limited) {
      expect(response.body).toEqual({ error: 'Rate limit exceeded' });
      expect([response.headers.get('retry-after'), response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]).toEqual(['1', '3', '0']);
    }
    for (const response of burst.filter((r) => r.status === status)) expect(response.headers.get('x-ratelimit-limit')).toBe('3');
  });
});
