import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_REQUIRED, IDEMPOTENCY_KEY_REUSED, type IssuedMerchantApiKeyView, type ProvisionedMerchantReply, type WebhookEndpointWithSecretView } from '@pp/contracts';
import { TestStack } from '@pp/testing';
import type { Pool } from 'pg';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant, signInAsNewUser } from '../testing/dashboard-client';

/*
 * The dashboard's creations and rotations that show a secret once carry the action's Idempotency-Key to the service
 * that records it with the change. The bus deadline can pass after the service committed (a 503 for a change that
 * was made); the browser then retries with the same key. That retry is the second request here: it must make
 * nothing a second time, and answer the secret again where the service keeps it (webhook secrets) or say what was
 * made where it does not (API keys, merchants). Real gateway, webhooks, dashboard, Postgres and Redis.
 */
describe('dashboard creations and rotations retried with their Idempotency-Key', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let db: Pool;
  let merchant: ProvisionedMerchant;
  let owner: DashboardBrowser;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'webhooks', 'dashboard'], label: 'dashboard-idempotency', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    gateway = new GatewayApi(stack);
    db = await stack.sql();
    merchant = await gateway.createMerchant('Retrying Shop');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const endpointsOf = async (browser = owner) => (await browser.get<{ endpoints: Array<{ id: string }> }>('/api/developers/webhook-endpoints?mode=test')).body.endpoints;
  const endpoint = (url: string) => ({ url, enabled_events: ['payment.confirmed'] });

  it('given an endpoint creation sent again with its key, then one endpoint is made and the retry answers it again with its secret (200, HIT); another body under the key is 400', async () => {
    const before = (await endpointsOf()).length;
    const key = randomUUID();
    const created = await owner.post<WebhookEndpointWithSecretView>('/api/developers/webhook-endpoints?mode=test', endpoint('http://127.0.0.1:9/once'), { 'idempotency-key': key });
    expect(created.status).toBe(201);

    const retried = await owner.post<WebhookEndpointWithSecretView>('/api/developers/webhook-endpoints?mode=test', endpoint('http://127.0.0.1:9/once'), { 'idempotency-key': key });

    expect(retried.status).toBe(200);
    expect(retried.headers.get('x-cache-lookup')).toBe('HIT');
    expect(retried.body).toEqual(created.body);
    expect(retried.body).not.toHaveProperty('replayed');
    expect((await endpointsOf()).length).toBe(before + 1);
    const changed = await owner.post<{ error: string }>('/api/developers/webhook-endpoints?mode=test', endpoint('http://127.0.0.1:9/other'), { 'idempotency-key': key });
    expect({ status: changed.status, body: changed.body }).toEqual({ status: 400, body: { error: IDEMPOTENCY_KEY_REUSED } });
    expect((await endpointsOf()).length).toBe(before + 1);

    const audit = await owner.get<{ data: Array<{ action: string; target_id: string; detail: string }> }>('/api/audit?action=webhook_endpoint.created');
    expect(audit.body.data.filter((entry) => entry.target_id === created.body.id).map((entry) => entry.detail)).toEqual([
      'http://127.0.0.1:9; a repeated request, answered again',
      'http://127.0.0.1:9',
    ]);
  });

  it('given a secret rotation sent again with its key, then the endpoint is rotated once and the retry answers the same new secret', async () => {
    const made = await owner.post<WebhookEndpointWithSecretView>('/api/developers/webhook-endpoints?mode=test', endpoint('http://127.0.0.1:9/rotated'));
    const path = `/api/developers/webhook-endpoints/${made.body.id}/rotate-secret?mode=test`;
    const key = randomUUID();
    const rotated = await owner.post<WebhookEndpointWithSecretView>(path, {}, { 'idempotency-key': key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(made.body.secret);

    const retried = await owner.post<WebhookEndpointWithSecretView>(path, {}, { 'idempotency-key': key });

    // Rotated twice, the second would have been refused (409: the replaced secret still signs) and its secret lost.
    expect(retried.status).toBe(200);
    expect(retried.headers.get('x-cache-lookup')).toBe('HIT');
    expect(retried.body.secret).toBe(rotated.body.secret);
    const [row] = (await db.query(`SELECT secret_version FROM webhooks.endpoints WHERE id = $1`, [made.body.id])).rows;
    expect(row.secret_version).toBe(2);
  });

  it('given an API key creation sent again with its key, then one key is issued and the retry is refused 409 naming it (kept only as a hash)', async () => {
    const keys = async () => (await owner.get<{ keys: unknown[] }>('/api/developers/keys?mode=test')).body.keys.length;
    const before = await keys();
    const key = randomUUID();
    const issued = await owner.post<IssuedMerchantApiKeyView>('/api/developers/keys?mode=test', { type: 'publishable' }, { 'idempotency-key': key });
    expect(issued.status).toBe(201);

    const retried = await owner.post<{ error: string }>('/api/developers/keys?mode=test', { type: 'publishable' }, { 'idempotency-key': key });

    expect(retried.status).toBe(409);
    expect(retried.body.error).toBe(`This Idempotency-Key already issued ${issued.body.id}; its answer, the only copy of the key, was lost: revoke ${issued.body.id} and issue another`);
    expect(await keys()).toBe(before + 1);
    const changed = await owner.post<{ error: string }>('/api/developers/keys?mode=test', { type: 'secret' }, { 'idempotency-key': key });
    expect({ status: changed.status, body: changed.body }).toEqual({ status: 400, body: { error: IDEMPOTENCY_KEY_REUSED } });
    expect(await keys()).toBe(before + 1);
  });

  it('given a merchant creation sent again with its key by a platform admin, then one merchant is made and the retry is refused 409 naming it', async () => {
    const email = `ops-${randomUUID().slice(0, 8)}@example.com`;
    const made = await gateway.call<{ password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email });
    const admin = new DashboardBrowser(stack.url('dashboard'));
    expect((await admin.login(email, made.body.password)).status).toBe(200);
    const owned = { name: 'Console Once', email: `console-${randomUUID().slice(0, 8)}@example.com` };
    const key = randomUUID();
    const created = await admin.post<ProvisionedMerchantReply>('/api/admin/merchants', owned, { 'idempotency-key': key });
    expect(created.status).toBe(201);

    const retried = await admin.post<{ error: string }>('/api/admin/merchants', owned, { 'idempotency-key': key });

    expect(retried.status).toBe(409);
    expect(retried.body.error).toMatch(new RegExp(`^This Idempotency-Key already created merchant ${created.body.merchant_id}; `));
    expect((await db.query(`SELECT count(*)::int AS n FROM gateway.merchants WHERE email = $1`, [owned.email])).rows[0].n).toBe(1);
    const keyless = await admin.post<{ error: string }>('/api/admin/merchants', { name: 'Keyless', email: `console-${randomUUID().slice(0, 8)}@example.com` }, { 'idempotency-key': undefined });
    expect({ status: keyless.status, body: keyless.body }).toEqual({ status: 400, body: { error: IDEMPOTENCY_KEY_REQUIRED } });
  });

  it('given a team user’s addition sent again with its key, then one user is added and the retry is refused 409 naming them (the password was shown once); without a key, 400', async () => {
    const team = async () => (await owner.get<{ users: unknown[] }>('/api/team/users')).body.users.length;
    const before = await team();
    const added = { email: `teammate-${randomUUID().slice(0, 8)}@example.com`, role: 'viewer' };
    const key = randomUUID();
    const first = await owner.post<{ id: string; password: string }>('/api/team/users', added, { 'idempotency-key': key });
    expect(first.status).toBe(201);

    const retried = await owner.post<{ error: string }>('/api/team/users', added, { 'idempotency-key': key });

    expect(retried.status).toBe(409);
    expect(retried.body.error).toBe(
      `This Idempotency-Key already added dashboard user ${first.body.id}; its answer, the only copy of the user's password, was lost: remove ${first.body.id} and add them again`,
    );
    expect(await team()).toBe(before + 1);
    const keyless = await owner.post<{ error: string }>('/api/team/users', { ...added, email: `keyless-${randomUUID().slice(0, 8)}@example.com` }, { 'idempotency-key': undefined });
    expect({ status: keyless.status, body: keyless.body }).toEqual({ status: 400, body: { error: IDEMPOTENCY_KEY_REQUIRED } });
    expect(await team()).toBe(before + 1);
  });

  it('keeps a user’s keys apart from another user’s and from the merchant’s API requests: the same key value makes a new endpoint each time', async () => {
    const before = (await endpointsOf()).length;
    const key = randomUUID();
    const body = endpoint('http://127.0.0.1:9/shared-key');
    expect((await owner.post('/api/developers/webhook-endpoints?mode=test', body, { 'idempotency-key': key })).status).toBe(201);
    const developer = await signInAsNewUser(stack, merchant, 'developer');
    expect((await developer.post('/api/developers/webhook-endpoints?mode=test', body, { 'idempotency-key': key })).status).toBe(201);
    const viaApi = await fetch(`${stack.url('gateway')}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.keys.test_secret}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    expect(viaApi.status).toBe(201);
    expect((await endpointsOf()).length).toBe(before + 3);
  });

  it.each([
    ['an endpoint creation', '/api/developers/webhook-endpoints?mode=test', endpoint('http://127.0.0.1:9/keyless')],
    ['a secret rotation', '/api/developers/webhook-endpoints/wh_0000000000/rotate-secret?mode=test', {}],
    ['an API key creation', '/api/developers/keys?mode=test', { type: 'publishable' }],
  ])('refuses %s without an Idempotency-Key (400), making nothing', async (_action, path, body) => {
    const [endpointsBefore, keysBefore] = [(await endpointsOf()).length, (await owner.get<{ keys: unknown[] }>('/api/developers/keys?mode=test')).body.keys.length];
    const refused = await owner.post<{ error: string }>(path, body, { 'idempotency-key': undefined });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: { error: IDEMPOTENCY_KEY_REQUIRED } });
    expect((await endpointsOf()).length).toBe(endpointsBefore);
    expect((await owner.get<{ keys: unknown[] }>('/api/developers/keys?mode=test')).body.keys).toHaveLength(keysBefore);
  });
});
