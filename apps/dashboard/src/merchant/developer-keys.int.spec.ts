import { randomUUID } from 'node:crypto';
import { TestStack } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';
import { API_KEY_CREATIONS_PER_HOUR, TOO_MANY_KEY_CREATIONS } from './api-key-creations.limiter';
import { LIVE_REFUND_KEY_REFUSED } from './developers.controller';

/*
 * Developers issue the merchant's API keys, but take no money actions: a
 * live key that could request refunds is the owner's or an administrator's
 * to issue (mayIssueKey). Creations and revocations are counted per merchant
 * and hour (ApiKeyCreationsLimiter). Real gateway, dashboard and Redis.
 */
describe('API keys a developer may issue from the dashboard', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let merchant: ProvisionedMerchant;
  let owner: DashboardBrowser;
  let developer: DashboardBrowser;

  beforeAll(async () => {
    // The hour's key budget is spent by a loop faster than any person: the per-second request budget must not stop it first.
    stack = await TestStack.start({ services: ['gateway', 'dashboard'], label: 'dashboard-keys', env: { DASHBOARD_SECURE_COOKIE: 'false', DASHBOARD_REQUESTS_PER_USER_PER_SECOND: '1000' } });
    gateway = new GatewayApi(stack);
    merchant = await gateway.createMerchant('Keyed Shop');
    owner = await ownerOf(merchant);
    const added = await owner.post<{ email: string; password: string }>('/api/team/users', { email: `dev-${randomUUID().slice(0, 8)}@example.com`, role: 'developer' });
    expect(added.status).toBe(201);
    developer = new DashboardBrowser(stack.url('dashboard'));
    expect((await developer.login(added.body.email, added.body.password)).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('given a developer, when asking for a live key that could request refunds, then it is refused and nothing is issued', async () => {
    const before = await developer.get<{ keys: unknown[] }>('/api/developers/keys?mode=live');
    for (const body of [{ type: 'secret' }, { type: 'restricted', scopes: ['payments.read', 'refunds.write'] }]) {
      const refused = await developer.post<{ error: string }>('/api/developers/keys?mode=live', body);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(LIVE_REFUND_KEY_REFUSED);
    }
    expect((await developer.get<{ keys: unknown[] }>('/api/developers/keys?mode=live')).body.keys).toHaveLength(before.body.keys.length);
  });

  it('given a developer, when asking for a test secret key or a live key that cannot refund, then it is issued', async () => {
    expect((await developer.post('/api/developers/keys?mode=test', { type: 'secret' })).status).toBe(201);
    expect((await developer.post('/api/developers/keys?mode=live', { type: 'publishable' })).status).toBe(201);
    expect((await developer.post('/api/developers/keys?mode=live', { type: 'restricted', scopes: ['checkout.write', 'payments.read'] })).status).toBe(201);
  });

  it('given the owner, when asking for a live secret key, then it is issued', async () => {
    const issued = await owner.post<{ type: string; secret: string }>('/api/developers/keys?mode=live', { type: 'secret' });
    expect(issued.status).toBe(201);
    expect(issued.body.type).toBe('secret');
  });

  it('given an owner creating and revoking keys in a loop, then past the hour’s budget creation is refused with Retry-After while revoking still works, and another merchant still creates', async () => {
    const looping = await ownerOf(await gateway.createMerchant('Looping Shop'));
    const statuses: number[] = [];
    let last = '';
    for (let creation = 0; creation < API_KEY_CREATIONS_PER_HOUR; creation++) {
      const created = await looping.post<{ id: string }>('/api/developers/keys', { type: 'publishable' });
      statuses.push(created.status);
      if (last) statuses.push((await looping.post(`/api/developers/keys/${last}/revoke`)).status);
      last = created.body.id;
    }
    expect(new Set(statuses)).toEqual(new Set([200, 201]));

    const refused = await looping.post<{ error: string }>('/api/developers/keys', { type: 'publishable' });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 429, body: { error: TOO_MANY_KEY_CREATIONS } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
    const revoked = await looping.post<{ id: string; revoked_at: string | null }>(`/api/developers/keys/${last}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: last, revoked_at: expect.any(String) });
    expect((await owner.post('/api/developers/keys', { type: 'publishable' })).status).toBe(201);
  });

  /** The merchant's owner, signed in to the dashboard. */
  async function ownerOf(shop: ProvisionedMerchant): Promise<DashboardBrowser> {
    const browser = new DashboardBrowser(stack.url('dashboard'));
    expect((await browser.login(shop.dashboard_user.email, shop.dashboard_user.password)).status).toBe(200);
    return browser;
  }
});
