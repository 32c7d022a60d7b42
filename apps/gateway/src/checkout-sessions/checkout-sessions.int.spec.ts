import { createHash } from 'node:crypto';
import { canonicalJson, type CheckoutSessionCreatedView, type CheckoutSessionView, type RequestOf, type Subject, type WireError } from '@pp/contracts';
import { TestStack, testInfra } from '@pp/testing';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { connectNats } from '@pp/platform';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';

/*
 * The gateway's half of PRODUCT-RULES §4.1 and §4.2 over real NATS. A stand-in for the
 * sessions service answers on the bus, so these tests see exactly what the
 * gateway sends and how it maps each answer.
 */

type Answer = { ok: true; data: unknown } | { ok: false; error: WireError };

const created: CheckoutSessionCreatedView = {
  id: 'clsession0000000000000001',
  checkout_url: 'http://localhost:3001/sessions/clsession0000000000000001',
  client_secret: 'cs_secret',
  status: 'PENDING',
  livemode: true,
  reference: 'order-1',
  memo: 'PP-7K3M9Q',
  expires_at: '2030-01-01T00:30:00.000Z',
};

const body = { amount: 1250, currency: 'cad', reference: '  order-1 ', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' };

describe('checkout session routes', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let merchant: ProvisionedMerchantView;
  let nc: NatsConnection;
  let subscriptions: Subscription[] = [];
  const received: Array<{ subject: string; payload: unknown; requestId?: string }> = [];

  /** Answers `subject` like the sessions service would, recording what arrives. */
  /** Resolves once NATS has the subscription, so the gateway's next request cannot outrun it. */
  const serve = async <S extends Subject>(subject: S, answer: (payload: RequestOf<S>) => Answer | undefined) => {
    subscriptions.push(
      nc.subscribe(`${stack.namespace}.${subject}`, {
        callback: (_error, msg: Msg) => {
          const payload: RequestOf<S> = JSON.parse(Buffer.from(msg.data).toString('utf8'));
          received.push({ subject, payload, requestId: msg.headers?.get('x-request-id') });
          const reply = answer(payload);
          if (reply) msg.respond(Buffer.from(JSON.stringify(reply)));
        },
      }),
    );
    await nc.flush();
  };

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'sessionsroutes', env: { NATS_REQUEST_TIMEOUT_MS: '400' } });
    gateway = new GatewayClient(stack);
    merchant = await gateway.createMerchant();
    nc = await connectNats(testInfra.natsUrl, 'checkout-sessions-spec');
  });
  afterEach(async () => {
    await Promise.all(subscriptions.map((s) => s.drain()));
    subscriptions = [];
    received.length = 0;
    await nc.flush();
  });
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  it('sends the validated body with the key’s merchant and mode and the idempotency token; answers 201', async () => {
    await serve('sessions.create.v1', (p) => ({ ok: true, data: { ...created, livemode: p.livemode, replayed: false } }));
    const result = await gateway.call('/v1/checkout/sessions', {
      token: merchant.keys.test_secret,
      idempotencyKey: 'idem-201',
      body,
      headers: { 'x-request-id': 'req-create-1' },
    });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ ...created, livemode: false });
    expect(result.headers.get('x-cache-lookup')).toBeNull();
    expect(received).toEqual([
      {
        subject: 'sessions.create.v1',
        requestId: 'req-create-1',
        payload: {
          merchant_id: merchant.merchant_id,
          livemode: false,
          body: { ...body, reference: 'order-1' },
          idempotency: { key: 'idem-201', fingerprint: createHash('sha256').update(canonicalJson(body)).digest('hex') },
        },
      },
    ]);
  });

  it('answers a replay the service recognised with 200 and X-Cache-Lookup: HIT, without `replayed`', async () => {
    await serve('sessions.create.v1', () => ({ ok: true, data: { ...created, replayed: true } }));
    const result = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, body });
    expect(result.status).toBe(200);
    expect(result.headers.get('x-cache-lookup')).toBe('HIT');
    expect(result.body).toEqual(created);
  });

  it('maps the service’s errors: CONFLICT 409, VALIDATION_FAILED 400, NOT_FOUND 404', async () => {
    await serve('sessions.create.v1', (p) =>
      p.body.reference === 'taken'
        ? { ok: false, error: { code: 'CONFLICT' as WireError['code'], message: 'Reference already exists' } }
        : { ok: false, error: { code: 'VALIDATION_FAILED' as WireError['code'], message: 'Validation failed: success_url must use https in live mode' } },
    );
    await serve('sessions.get.v1', () => ({ ok: false, error: { code: 'NOT_FOUND' as WireError['code'], message: 'Checkout session not found' } }));
    const conflict = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, body: { ...body, reference: 'taken' } });
    expect(conflict).toMatchObject({ status: 409, body: { error: 'Reference already exists' } });
    const invalid = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, body });
    expect(invalid).toMatchObject({ status: 400, body: { error: 'Validation failed: success_url must use https in live mode' } });
    const missing = await gateway.call('/v1/checkout/sessions/clunknown000000000000000', { token: merchant.keys.live_secret });
    expect(missing).toMatchObject({ status: 404, body: { error: 'Checkout session not found' } });
  });

  it('retrieves by id in the key’s merchant and mode', async () => {
    const view: CheckoutSessionView = {
      id: created.id,
      amount: 1250,
      currency: 'CAD',
      reference: 'order-1',
      memo: created.memo,
      status: 'PENDING',
      livemode: true,
      client_secret: 'cs_secret',
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      metadata: null,
      expires_at: created.expires_at,
      created_at: '2030-01-01T00:00:00.000Z',
    };
    await serve('sessions.get.v1', () => ({ ok: true, data: view }));
    const result = await gateway.call(`/v1/checkout/sessions/${created.id}`, { token: merchant.keys.live_secret });
    expect(result).toMatchObject({ status: 200, body: view });
    expect(received.map((r) => r.payload)).toEqual([{ merchant_id: merchant.merchant_id, livemode: true, session_id: created.id }]);
  });

  it('rejects a bad body at the edge without calling the service', async () => {
    await serve('sessions.create.v1', () => ({ ok: true, data: { ...created, replayed: false } }));
    const result = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, body: { ...body, currency: 'usd', amount: 0 } });
    expect(result).toMatchObject({
      status: 400,
      body: { error: "Validation failed: amount must be a positive integer number of cents; currency must be exactly 'cad'" },
    });
    expect(received).toEqual([]);
  });

  it.each([
    ['amount', { amount: 12.5 }, 'amount must be a positive integer number of cents'],
    ['amount', { amount: '100' }, 'amount must be a positive integer number of cents'],
    ['currency', { currency: 'CAD' }, "currency must be exactly 'cad'"],
    ['reference', { reference: '  ' }, 'reference must not be empty'],
    ['reference', { reference: 'x'.repeat(256) }, 'reference must be at most 255 characters'],
    ['reference', { reference: 'order\u202e1' }, 'reference must not contain control or invisible formatting characters'],
    ['reference', { reference: 'order\t1' }, 'reference must not contain control or invisible formatting characters'],
    ['success_url', { success_url: 'shop.example/ok' }, 'success_url must be a fully qualified URL'],
    ['cancel_url', { cancel_url: 'ftp://shop.example/x' }, 'cancel_url must be a fully qualified URL'],
    ['metadata', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata must have at most 50 keys'],
    ['metadata', { metadata: ['a'] }, 'metadata must be an object of key-value pairs'],
  ])('refuses a bad %s at the edge with a message naming it (the service validates only the mode’s URL rule)', async (_field, overrides, message) => {
    await serve('sessions.create.v1', () => ({ ok: true, data: { ...created, replayed: false } }));
    const result = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, body: { ...body, ...overrides } });
    expect(result.status).toBe(400);
    expect((result.body as { error: string }).error).toMatch(/^Validation failed: /);
    expect((result.body as { error: string }).error).toContain(message);
    expect(received).toEqual([]);
  });

  it('answers 503 with Retry-After when no service answers, and when the service is silent past the deadline', async () => {
    const none = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, body });
    expect(none).toMatchObject({ status: 503, body: { error: 'Service unavailable' } });
    expect(none.headers.get('retry-after')).toBe('1');

    await serve('sessions.get.v1', () => undefined);
    const silent = await gateway.call(`/v1/checkout/sessions/${created.id}`, { token: merchant.keys.live_secret });
    expect(silent).toMatchObject({ status: 503, body: { error: 'Service unavailable' } });
    expect(silent.headers.get('retry-after')).toBe('1');
    expect(received).toHaveLength(1);
  });

  it('frees the Idempotency-Key after a 503 so the client can retry with it', async () => {
    const first = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, idempotencyKey: 'retry-me', body });
    expect(first.status).toBe(503);
    await serve('sessions.create.v1', () => ({ ok: true, data: { ...created, replayed: false } }));
    const retry = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, idempotencyKey: 'retry-me', body });
    expect(retry.status).toBe(201);
    const replay = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.live_secret, idempotencyKey: 'retry-me', body });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('x-cache-lookup')).toBe('HIT');
    expect(replay.body).toEqual(retry.body);
    expect(received).toHaveLength(1);
  });
});
