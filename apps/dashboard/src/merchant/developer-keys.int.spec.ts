import { randomUUID } from 'node:crypto';
import { TestStack } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';
import { LIVE_REFUND_KEY_REFUSED } from './developers.controller';

/*
 * Developers issue the merchant's API keys, but take no money actions: a
 * live key that could request refunds is the owner's or an administrator's
 * to issue (mayIssueKey). Real gateway and dashboard.
 */
describe('API keys a developer may issue from the dashboard', () => {
  let stack: TestStack;
  let merchant: ProvisionedMerchant;
  let owner: DashboardBrowser;
  let developer: DashboardBrowser;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'dashboard'], label: 'dashboard-keys', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    merchant = await new GatewayApi(stack).createMerchant('Keyed Shop');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
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
});
