import { startTogether, TestStack, testInfra, waitFor, WebhookReceiver } from '@pp/testing';
import Redis from 'ioredis';
import { type CheckoutSessionCreatedView, SECRET_ROTATED_SINCE, type WebhookEndpointView, type WebhookEndpointWithSecretView } from '@pp/contracts';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';

/*
 * Webhooks end to end on the real stack: register an endpoint through the
 * gateway, let a session expire (the ledger appends checkout.session.expired
 * and publishes it), receive the signed delivery, then resend, rotate and
 * delete. Only the gateway is driven; everything behind it is real.
 */
describe('webhook endpoints through the gateway', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let receiver: WebhookReceiver;
  let merchant: ProvisionedMerchantView;

  beforeAll(async () => {
    [stack, receiver] = await startTogether([
      TestStack.start({
        services: ['gateway', 'sessions', 'ledger', 'webhooks'],
        label: 'webhook-routes',
        env: { SESSION_TTL_SECONDS: '2', SESSION_SWEEP_INTERVAL_MS: '500', WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.2' },
      }),
      WebhookReceiver.start(),
    ]);
    gateway = new GatewayClient(stack);
    merchant = await gateway.createMerchant('Webhook Merchant');
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  const testKey = () => merchant.keys.test_secret;

  it('hands the webhooks service each creation’s and rotation’s Idempotency-Key, which it records for a repeat whose answer was lost', async () => {
    const [creationKey, rotationKey] = [`create-${Date.now()}`, `rotate-${Date.now()}`];
    const created = await gateway.call<WebhookEndpointWithSecretView>('/v1/webhook_endpoints', { token: testKey(), idempotencyKey: creationKey, body: { url: receiver.url('/recorded') } });
    expect(created.status).toBe(201);
    const rotated = await gateway.call<WebhookEndpointWithSecretView>(`/v1/webhook_endpoints/${created.body.id}/rotate_secret`, { token: testKey(), idempotencyKey: rotationKey, body: {} });
    expect(rotated.status).toBe(200);
    const db = await stack.sql();
    const { rows } = await db.query(
      `SELECT idempotency_key, endpoint_id, merchant_id, livemode FROM webhooks.endpoint_requests WHERE idempotency_key = ANY($1) ORDER BY created_at, idempotency_key`,
      [[creationKey, rotationKey]],
    );
    expect(rows).toEqual([
      { idempotency_key: creationKey, endpoint_id: created.body.id, merchant_id: merchant.merchant_id, livemode: false },
      { idempotency_key: rotationKey, endpoint_id: created.body.id, merchant_id: merchant.merchant_id, livemode: false },
    ]);

    // Redis forgets the keys (evicted, flushed): the webhooks service answers the repeats, and the client sees replays
    // as the gateway's own: 200, X-Cache-Lookup: HIT, the endpoint with the secret its request made, no `replayed`
    // field. The creation's secret was rotated since: its repeat is refused rather than handed the rotated one.
    await forgetIdempotencyEntries();
    const repeats = [
      await gateway.call<WebhookEndpointWithSecretView>('/v1/webhook_endpoints', { token: testKey(), idempotencyKey: creationKey, body: { url: receiver.url('/recorded') } }),
      await gateway.call<WebhookEndpointWithSecretView>(`/v1/webhook_endpoints/${created.body.id}/rotate_secret`, { token: testKey(), idempotencyKey: rotationKey, body: {} }),
    ];
    expect(repeats.map((repeat) => ({ status: repeat.status, cache: repeat.headers.get('x-cache-lookup'), body: repeat.body }))).toEqual([
      { status: 409, cache: null, body: { error: SECRET_ROTATED_SINCE } },
      { status: 200, cache: 'HIT', body: rotated.body },
    ]);
    expect((await gateway.call(`/v1/webhook_endpoints/${created.body.id}`, { method: 'DELETE', token: testKey() })).status).toBe(200);
  });

  it('refuses a second rotation while the secret the first replaced still signs (409, saying until when and how to go on), still replays the first, and rotates at once for a leak', async () => {
    const created = await gateway.call<WebhookEndpointWithSecretView>('/v1/webhook_endpoints', { token: testKey(), body: { url: receiver.url('/rotated-twice') } });
    const rotate = (idempotencyKey: string, body: object = {}) =>
      gateway.call<WebhookEndpointWithSecretView & { error?: string }>(`/v1/webhook_endpoints/${created.body.id}/rotate_secret`, { token: testKey(), idempotencyKey, body });
    const firstKey = `rotate-first-${Date.now()}`;
    const first = await rotate(firstKey);
    expect(first.status).toBe(200);

    const second = await rotate(`rotate-second-${Date.now()}`);
    expect(second.status).toBe(409);
    expect(second.body.error).toBe(
      `The secret replaced by the last rotation still signs deliveries until ${first.body.previous_secret_expires_at}; ` +
        'rotate again after that, or now with previous_secret_expires_in 0 to stop the current secret at once (the replaced one stops too)',
    );
    const replay = await rotate(firstKey);
    expect({ status: replay.status, cache: replay.headers.get('x-cache-lookup'), body: replay.body }).toEqual({ status: 200, cache: 'HIT', body: first.body });

    const leaked = await rotate(`rotate-leaked-${Date.now()}`, { previous_secret_expires_in: 0 });
    expect(leaked.status).toBe(200);
    expect(leaked.body.secret).not.toBe(first.body.secret);
    expect((await gateway.call(`/v1/webhook_endpoints/${created.body.id}`, { method: 'DELETE', token: testKey() })).status).toBe(200);
  });

  /** Deletes the gateway's idempotency entries of this stack, as a Redis that lost them would. */
  async function forgetIdempotencyEntries(): Promise<void> {
    const redis = new Redis(testInfra.redisUrl);
    try {
      const keys = await redis.keys(`${stack.namespace}:gateway:idem:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  }

  it('delivers a signed checkout.session.expired, lists deliveries, resends, rotates and deletes', async () => {
    const created = await gateway.call<WebhookEndpointWithSecretView>('/v1/webhook_endpoints', {
      token: testKey(),
      body: { url: receiver.url('/hooks'), enabled_events: ['checkout.session.expired'], description: 'orders' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      url: receiver.url('/hooks'),
      enabled_events: ['checkout.session.expired'],
      livemode: false,
      status: 'enabled',
      secret: expect.stringMatching(/^whsec_/),
    });
    receiver.trust('/hooks', created.body.secret);

    const listed = await gateway.call<WebhookEndpointView[]>('/v1/webhook_endpoints', { token: testKey() });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id })]);
    expect(listed.body[0]).not.toHaveProperty('secret');
    expect(listed.headers.get('x-has-more')).toBe('false');

    const session = await gateway.call<CheckoutSessionCreatedView>('/v1/checkout/sessions', {
      token: testKey(),
      body: {
        amount: 2500,
        currency: 'cad',
        reference: 'order-expiring',
        success_url: 'https://merchant.example/ok',
        cancel_url: 'https://merchant.example/cancel',
        metadata: { order: '42' },
      },
    });
    expect(session.status).toBe(201);

    const [delivery] = await waitFor('the expiry webhook', () => receiver.received('/hooks').length > 0 && receiver.received('/hooks'), {
      timeoutMs: 20_000,
    });
    expect(delivery.verification.valid).toBe(true);
    const body = JSON.parse(delivery.rawBody.toString('utf8'));
    expect(body).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'checkout.session.expired',
      livemode: false,
      data: { reference: 'order-expiring', amount: 2500, metadata: { order: '42' }, session_id: session.body.id },
    });

    // Sent while the first attempt may still be in flight: the delivery stays open for it (a resend is never lost).
    const resendKey = `resend-${Date.now()}`;
    const resent = await gateway.call(`/v1/events/${body.id}/resend`, { token: testKey(), idempotencyKey: resendKey, body: {} });
    expect(resent).toMatchObject({ status: 200, body: { event_id: body.id, webhook_ids: [created.body.id] } });
    expect(resent.headers.get('x-cache-lookup')).toBeNull();
    await waitFor('the resent delivery', () => receiver.received('/hooks').length >= 2);
    expect(receiver.received('/hooks')[1].eventId).toBe(body.id);

    // Its answer lost and the key freed, the client's retry is answered by the webhooks service as a replay, resending nothing.
    await forgetIdempotencyEntries();
    const retried = await gateway.call(`/v1/events/${body.id}/resend`, { token: testKey(), idempotencyKey: resendKey, body: {} });
    expect({ status: retried.status, cache: retried.headers.get('x-cache-lookup'), body: retried.body }).toEqual({ status: 200, cache: 'HIT', body: resent.body });
    const { rows: resends } = await (await stack.sql()).query(`SELECT event_id, webhook_ids FROM webhooks.resend_requests WHERE idempotency_key = $1`, [resendKey]);
    expect(resends).toEqual([{ event_id: body.id, webhook_ids: [created.body.id] }]);

    const rotated = await gateway.call<WebhookEndpointWithSecretView>(`/v1/webhook_endpoints/${created.body.id}/rotate_secret`, { token: testKey(), body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    const removed = await gateway.call(`/v1/webhook_endpoints/${created.body.id}`, { method: 'DELETE', token: testKey() });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: created.body.id, deleted: true });
    expect((await gateway.call('/v1/webhook_endpoints', { token: testKey() })).body).toEqual([]);
  });

  it('isolates endpoints by merchant and mode, and validates at the edge', async () => {
    const created = await gateway.call<WebhookEndpointWithSecretView>('/v1/webhook_endpoints', { token: testKey(), body: { url: receiver.url('/iso') } });
    expect(created.status).toBe(201);
    expect(created.body.enabled_events).toEqual(['*']);

    const other = await gateway.createMerchant('Other Merchant');
    for (const token of [other.keys.test_secret, merchant.keys.live_secret]) {
      const rotate = await gateway.call(`/v1/webhook_endpoints/${created.body.id}/rotate_secret`, { token, body: {} });
      expect(rotate.status).toBe(404);
      expect(rotate.body).toEqual({ error: 'Webhook endpoint not found' });
      const list = await gateway.call('/v1/webhook_endpoints', { token });
      expect(list.body).toEqual([]);
    }

    const live = await gateway.call<{ error: string }>('/v1/webhook_endpoints', { token: merchant.keys.live_secret, body: { url: 'http://merchant.example/hooks' } });
    expect(live.status).toBe(400);
    expect(live.body.error).toMatch(/^Validation failed: .*https/);

    const bad = await gateway.call<{ error: string }>('/v1/webhook_endpoints', { token: testKey(), body: { url: 'not a url', enabled_events: ['nope'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Validation failed: .*url.*enabled_events|^Validation failed: .*enabled_events.*url/);

    // The idempotency token is the Idempotency-Key header's, never the body's.
    const token = await gateway.call('/v1/webhook_endpoints', { token: testKey(), body: { url: receiver.url('/iso'), idempotency: { key: 'k', fingerprint: 'f' } } });
    expect(token).toMatchObject({ status: 400, body: { error: 'Validation failed: property idempotency should not exist' } });
    for (const description of ['Orders\u202e', 'Orders\nand refunds']) {
      const hidden = await gateway.call('/v1/webhook_endpoints', { token: testKey(), body: { url: receiver.url('/iso'), description } });
      expect(hidden).toMatchObject({ status: 400, body: { error: 'Validation failed: description must not contain control or invisible formatting characters' } });
    }

    const scoped = await gateway.call('/v1/webhook_endpoints', { token: merchant.keys.test_publishable });
    expect(scoped.status).toBe(403);

    // The list pages as the other lists do, and refuses what they refuse.
    for (const query of ['limit=0', 'limit=51', 'starting_after=wh_x', `starting_after=wh_${'z'.repeat(20)}`, 'anything=1']) {
      expect(await gateway.call(`/v1/webhook_endpoints?${query}`, { token: testKey() })).toMatchObject({ status: 400, body: { error: 'Invalid query parameters' } });
    }
    // Any event id the gateway takes is one the webhooks service looks up: unknown, it is not found, not invalid.
    const longest = await gateway.call(`/v1/events/evt_${'a'.repeat(62)}/resend`, { token: testKey(), body: {} });
    expect(longest).toMatchObject({ status: 404, body: { error: 'Event not found' } });
  });

  it('pages the endpoint list as the other lists (limit, starting_after, X-Has-More)', async () => {
    // A merchant of its own: its key's rate limit is not the other tests'.
    const key = (await gateway.createMerchant('Endpoint Pager')).keys.test_secret;
    for (const i of [1, 2, 3]) expect((await gateway.call('/v1/webhook_endpoints', { token: key, body: { url: receiver.url(`/page-${i}`) } })).status).toBe(201);
    const whole = await gateway.call<WebhookEndpointView[]>('/v1/webhook_endpoints', { token: key });
    expect(whole.body).toHaveLength(3);
    expect(whole.headers.get('x-has-more')).toBe('false');
    const first = await gateway.call<WebhookEndpointView[]>('/v1/webhook_endpoints?limit=1', { token: key });
    expect({ ids: first.body.map((endpoint) => endpoint.id), more: first.headers.get('x-has-more') }).toEqual({ ids: [whole.body[0].id], more: 'true' });
    const rest = await gateway.call<WebhookEndpointView[]>(`/v1/webhook_endpoints?starting_after=${whole.body[0].id}`, { token: key });
    expect({ ids: rest.body.map((endpoint) => endpoint.id), more: rest.headers.get('x-has-more') }).toEqual({ ids: whole.body.slice(1).map((endpoint) => endpoint.id), more: 'false' });
    const past = await gateway.call<WebhookEndpointView[]>(`/v1/webhook_endpoints?starting_after=${whole.body[whole.body.length - 1].id}`, { token: key });
    expect({ body: past.body, more: past.headers.get('x-has-more') }).toEqual({ body: [], more: 'false' });
  });

  it('disables and enables an endpoint (idempotent, scoped like the other routes)', async () => {
    const created = await gateway.call<WebhookEndpointWithSecretView>('/v1/webhook_endpoints', { token: testKey(), body: { url: receiver.url('/toggle') } });
    const other = await gateway.createMerchant('Toggle Stranger');
    for (const token of [other.keys.test_secret, merchant.keys.live_secret]) {
      expect((await gateway.call(`/v1/webhook_endpoints/${created.body.id}/disable`, { token, body: {} })).status).toBe(404);
    }
    for (let round = 0; round < 2; round++) {
      const disabled = await gateway.call<WebhookEndpointView>(`/v1/webhook_endpoints/${created.body.id}/disable`, { token: testKey(), body: {} });
      expect([disabled.status, disabled.body.status, disabled.body.disabled_reason]).toEqual([200, 'disabled', 'disabled by the merchant']);
    }
    const listed = await gateway.call<WebhookEndpointView[]>('/v1/webhook_endpoints', { token: testKey() });
    expect(listed.body.find((endpoint) => endpoint.id === created.body.id)?.status).toBe('disabled');
    const enabled = await gateway.call<WebhookEndpointView>(`/v1/webhook_endpoints/${created.body.id}/enable`, { token: testKey(), body: {} });
    expect([enabled.status, enabled.body.status, enabled.body.disabled_reason]).toEqual([200, 'enabled', null]);
    expect((await gateway.call('/v1/webhook_endpoints/wh_nothing/enable', { token: testKey(), body: {} })).status).toBe(404);
  });
});
