import { randomUUID } from 'node:crypto';
import { connectNats, subjectPrefix } from '@pp/platform';
import { testInfra, TestStack } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';

/*
 * What the dashboard's edge refuses or words itself, over the real app and
 * the services behind it: text Postgres cannot store (a NUL, half a
 * surrogate pair) in a body or a query is 400 before any service sees it, a
 * body that is not JSON is 415, a failure names the request id (PRODUCT-RULES
 * §7), and an id that cannot exist is answered as an unknown one.
 */
describe('dashboard: hostile input', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let merchant: ProvisionedMerchant;
  let owner: DashboardBrowser;
  let ops: DashboardBrowser;
  let nc: NatsConnection;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'sessions', 'ledger', 'webhooks', 'dashboard'], label: 'dashboard-hostile', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    gateway = new GatewayApi(stack);
    merchant = await gateway.createMerchant('Hostile');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
    const email = `ops-${randomUUID().slice(0, 8)}@example.com`;
    const admin = await gateway.call<{ password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email });
    expect(admin.status).toBe(201);
    ops = new DashboardBrowser(stack.url('dashboard'));
    expect((await ops.login(email, admin.body.password)).status).toBe(200);
    nc = await connectNats(testInfra.natsUrl, 'dashboard-hostile-spec');
  });
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  it.each([
    ['a NUL in the e-mail', { email: 'a\u0000', password: 'x' }, 'Validation failed: body.email must not contain NUL characters'],
    ['half a surrogate pair in the password', { email: 'a@example.com', password: 'x\ud800' }, 'Validation failed: body.password must be valid Unicode (unpaired surrogate)'],
  ])('given a sign-in with %s (no session needed), then it is 400 naming the field', async (_case, body, error) => {
    const answer = await new DashboardBrowser(stack.url('dashboard')).post('/api/auth/login', body);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { error } });
  });

  it('given a signed-in owner’s webhook endpoint with a NUL in its description, then it is 400 and no endpoint is made', async () => {
    const answer = await owner.post('/api/developers/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', description: '\u0000' });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { error: 'Validation failed: body.description must not contain NUL characters' } });
    expect((await owner.get<{ endpoints: unknown[] }>('/api/developers/webhook-endpoints')).body.endpoints).toEqual([]);
  });

  it.each([
    ['a sign-in (no session needed)', '/api/auth/login', { email: 'a@example.com', password: 'x'.repeat(20 * 1024) }],
    ['a signed-in route, sent with no session', '/api/developers/webhook-endpoints', { url: 'https://shop.example/hook', description: 'x'.repeat(20 * 1024) }],
  ])('given %s with a 20 KB JSON body, then it is 413 in the dashboard’s error shape, before any guard or validation', async (_case, path, body) => {
    const answer = await new DashboardBrowser(stack.url('dashboard')).post(path, body);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 413, body: { error: 'Request body too large' } });
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('given a sign-in sent as a form, then it is 415: JSON is the only body taken', async () => {
    const answer = await fetch(`${stack.url('dashboard')}/api/auth/login`, {
      method: 'POST',
      headers: { origin: stack.url('dashboard'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%00&password=x',
    });
    expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 415, body: { error: 'Unsupported Content-Type' } });
  });

  it.each([
    ['the owner', '/api/checkout-sessions?starting_after=%00', () => owner, 'query.starting_after'],
    ['a platform admin', '/api/admin/merchants?search=%00', () => ops, 'query.search'],
    ['a platform admin', '/api/admin/merchants?limit=5&search=Shop&search=a%00', () => ops, 'query.search[1]'],
  ])('given %s asking %s, then it is 400 naming the parameter', async (_who, path, browser, parameter) => {
    const answer = await browser().get(path);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { error: `Validation failed: ${parameter} must not contain NUL characters` } });
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });

  it('given a query without such text, then it is answered as before', async () => {
    expect((await ops.get('/api/admin/merchants?search=Hostile')).status).toBe(200);
  });

  it('given a service failing with an internal error, then the 500 names the request id it carries', async () => {
    const failing = nc.subscribe(`${subjectPrefix(stack.namespace)}refunds.cancel.v1`, {
      callback: (_error, msg) => msg.respond(Buffer.from(JSON.stringify({ ok: false, error: { code: 'INTERNAL', message: 'relation "x" does not exist' } }))),
    });
    await nc.flush();

    const answer = await owner.post<{ error: string }>('/api/refunds/rf_unknown0001/cancel');
    failing.unsubscribe();

    const requestId = answer.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 500, body: { error: `Internal error; contact support with request id ${requestId}` } });
  });

  it.each([
    ['a checkout session', '/api/checkout-sessions', 'c0000000000000000000000000', 'Checkout session not found'],
    ['a payment', '/api/payments', 'txn_000000000000', 'Payment not found'],
  ])('given %s id that cannot exist, then it is answered as an unknown one', async (_what, path, unknownId, error) => {
    const unknown = await owner.get(`${path}/${unknownId}`);
    const malformed = await owner.get(`${path}/not!an-id`);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: { error } });
    expect({ status: malformed.status, body: malformed.body }).toEqual({ status: 404, body: { error } });
  });
});
