import { randomUUID } from 'node:crypto';
import { TestStack } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';
import { TEAM_ADDITIONS_PER_HOUR, TOO_MANY_ADDITIONS } from './team-additions.limiter';

/*
 * E-mail addresses are unique across the platform, so adding a taken one
 * answers 409: each merchant's additions, taken or not, are counted, which
 * bounds how many addresses an owner can probe. Real gateway, dashboard and
 * Redis.
 */
describe('team additions per merchant', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let merchant: ProvisionedMerchant;
  let owner: DashboardBrowser;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'dashboard'], label: 'dashboard-additions', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    gateway = new GatewayApi(stack);
    merchant = await gateway.createMerchant('Probing Shop');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const add = (browser: DashboardBrowser, email: string) => browser.post<{ error?: string }>('/api/team/users', { email, role: 'viewer' });

  it('given an owner probing addresses, then past the hour’s budget every addition is refused with Retry-After, and another merchant still adds', async () => {
    const other = await gateway.createMerchant('Other Shop');
    const statuses: number[] = [];
    for (let i = 0; i < TEAM_ADDITIONS_PER_HOUR; i++) {
      // Every other one is an address that exists elsewhere: a 409 counts as much as a 201.
      const email = i % 2 === 0 ? other.dashboard_user.email : `viewer-${randomUUID().slice(0, 8)}@example.com`;
      statuses.push((await add(owner, email)).status);
    }
    expect(new Set(statuses)).toEqual(new Set([201, 409]));

    const refused = await add(owner, `late-${randomUUID().slice(0, 8)}@example.com`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: TOO_MANY_ADDITIONS });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);

    const otherOwner = new DashboardBrowser(stack.url('dashboard'));
    expect((await otherOwner.login(other.dashboard_user.email, other.dashboard_user.password)).status).toBe(200);
    expect((await add(otherOwner, `fresh-${randomUUID().slice(0, 8)}@example.com`)).status).toBe(201);
  });
});
