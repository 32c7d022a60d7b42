import { randomUUID } from 'node:crypto';
import type { AuditEntryView, ListPage } from '@pp/contracts';
import { TestStack } from '@pp/testing';
import { DashboardBrowser, GatewayApi } from '../testing/dashboard-client';

/*
 * A creation that answers a secret shown once waits for its answer past the bus's default (SHOWN_ONCE_CREATION_TIMEOUT_MS):
 * here the dashboard's default is made shorter than one password hash, as a gateway with hashes in line makes it.
 */
describe('dashboard creations that show a secret once, behind a slow password hash', () => {
  let stack: TestStack;
  let owner: DashboardBrowser;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'dashboard'], label: 'shown-once', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    const merchant = await new GatewayApi(stack).createMerchant('Shown Once');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
    // Signed in first (a sign-in hashes too), then the dashboard restarted with a bus default shorter than one hash
    // (scrypt at the gateway's cost takes a few hundred milliseconds); the session lives in Redis and carries over.
    stack.env.NATS_REQUEST_TIMEOUT_MS = '150';
    await stack.process('dashboard').stop();
    await stack.startService('dashboard');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('given a team user added while hashing outlasts the bus default, then the owner is shown the password and the addition is in the audit trail', async () => {
    const email = `late-${randomUUID().slice(0, 8)}@example.com`;
    const added = await owner.post<{ id: string; email: string; password: string }>('/api/team/users', { email, role: 'developer' });
    expect(added).toMatchObject({ status: 201, body: { email, password: expect.any(String) } });
    const trail = await owner.get<ListPage<AuditEntryView>>('/api/audit?action=team.user_added');
    expect(trail.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'team.user_added', target_id: added.body.id })]));
  });
});
