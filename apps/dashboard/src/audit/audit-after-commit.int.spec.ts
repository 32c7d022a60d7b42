import { randomUUID } from 'node:crypto';
import { TestStack } from '@pp/testing';
import Redis from 'ioredis';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';

/*
 * A team change commits in the gateway before the dashboard ends the user's
 * sessions in Redis. When that ending fails, the request answers 503 but the
 * change stands: its audit entry must be recorded all the same. The failure
 * is real: the user's session list in Redis is made a string, so the
 * session store's script fails on it (WRONGTYPE).
 */

interface AuditPage {
  data: { action: string; target_id: string | null; detail: string | null }[];
}

describe('audit entries of a change that committed before the request failed', () => {
  let stack: TestStack;
  let merchant: ProvisionedMerchant;
  let owner: DashboardBrowser;
  let redis: Redis;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'webhooks', 'dashboard'], label: 'dashboard-audit-commit', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    merchant = await new GatewayApi(stack).createMerchant('Audited Shop');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
    redis = new Redis(stack.env.REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  /** Makes ending `userId`'s sessions fail: their list of sessions is no longer a set. */
  const breakSessionListOf = (userId: string) => redis.set(`${stack.namespace}:dashboard:session:user:${userId}`, 'not a set');

  it('given the sessions of a demoted user cannot be ended, then the answer is 503, the role is changed, and the change is in the audit list', async () => {
    const added = await owner.post<{ id: string }>('/api/team/users', { email: `dev-${randomUUID().slice(0, 8)}@example.com`, role: 'developer' });
    expect(added.status).toBe(201);
    await breakSessionListOf(added.body.id);

    const changed = await owner.request('PATCH', `/api/team/users/${added.body.id}`, { role: 'viewer' });

    expect(changed.status).toBe(503);
    const team = await owner.get<{ users: { id: string; role: string }[] }>('/api/team/users');
    expect(team.body.users.find((user) => user.id === added.body.id)?.role).toBe('viewer');
    const audit = await owner.get<AuditPage>('/api/audit');
    expect(audit.body.data).toContainEqual(expect.objectContaining({ action: 'team.role_changed', target_id: added.body.id }));
  });

  it('given a webhook endpoint created from the dashboard, then an Idempotency token in the body is refused (the server sets it)', async () => {
    const refused = await owner.post<{ error: string }>('/api/developers/webhook-endpoints?mode=test', {
      url: 'https://hooks.example.com/in',
      idempotency: { key: 'chosen-by-the-browser', fingerprint: 'f' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/idempotency should not exist/);
  });
});
