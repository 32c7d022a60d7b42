import { randomUUID } from 'node:crypto';
import type { MerchantAdminView, ProvisionedMerchantReply } from '@pp/contracts';
import { TestStack } from '@pp/testing';
import type { Pool } from 'pg';
import { DashboardBrowser, GatewayApi } from '../testing/dashboard-client';

/*
 * The platform admins' merchant console over real services: its audit
 * entries say what the admin API's say (the deposit address given at
 * creation; old → new on an update; `no change` for an update that changes
 * nothing), the bus's `before` never reaches the browser, and the list pages
 * like the other admin lists.
 */
describe('dashboard /api/admin/merchants', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let db: Pool;
  let admin: DashboardBrowser;
  let adminId: string;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'dashboard'], label: 'dashboard-merchants', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    gateway = new GatewayApi(stack);
    db = await stack.sql();
    const email = `ops-${randomUUID().slice(0, 8)}@example.com`;
    const created = await gateway.call<{ id: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email });
    adminId = created.body.id;
    admin = new DashboardBrowser(stack.url('dashboard'));
    expect((await admin.login(email, created.body.password)).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** The merchant's audit entries in the order they were recorded. */
  const trailOf = async (merchantId: string) =>
    (await db.query(`SELECT actor_id, action, detail FROM gateway.audit_entries WHERE target_id = $1 ORDER BY position`, [merchantId])).rows;

  const createMerchant = async (body: Record<string, unknown>) => {
    const created = await admin.post<ProvisionedMerchantReply>('/api/admin/merchants', { name: 'Console Shop', email: `console-${randomUUID().slice(0, 8)}@example.com`, ...body });
    expect(created.status).toBe(201);
    return created.body;
  };

  const update = (merchantId: string, body: Record<string, unknown>) => admin.request<MerchantAdminView>('PATCH', `/api/admin/merchants/${merchantId}`, body);

  it('given a merchant created with a deposit address, when it is changed and cleared, then the trail names the address given and each old → new value', async () => {
    const created = await createMerchant({ etransfer_email: 'till-old@console.example' });
    const moved = await update(created.merchant_id, { etransfer_email: 'till-new@console.example', name: 'Console Shop Renamed', frame_ancestors: [] });
    expect(moved).toMatchObject({ status: 200, body: { id: created.merchant_id, etransfer_email: 'till-new@console.example', name: 'Console Shop Renamed' } });
    expect(moved.body).not.toHaveProperty('before');
    expect((await update(created.merchant_id, { etransfer_email: null })).status).toBe(200);

    expect(await trailOf(created.merchant_id)).toEqual([
      { actor_id: adminId, action: 'merchant.created', detail: `owner ${created.dashboard_user.email}; deposit address till-old@console.example` },
      // frame_ancestors was sent but already empty: not a change.
      { actor_id: adminId, action: 'merchant.updated', detail: 'deposit address till-old@console.example → till-new@console.example; name Console Shop Renamed' },
      { actor_id: adminId, action: 'merchant.updated', detail: 'deposit address till-new@console.example → none' },
    ]);
  });

  it('given an update with an empty body, then it answers the merchant as it is and the trail records no change, as the admin API does', async () => {
    const created = await createMerchant({ etransfer_email: `till-${randomUUID().slice(0, 8)}@console.example` });
    const unchanged = await update(created.merchant_id, {});
    expect(unchanged).toMatchObject({ status: 200, body: { id: created.merchant_id, name: 'Console Shop', frame_ancestors: [] } });
    expect((await trailOf(created.merchant_id)).map((entry) => entry.detail)).toEqual([expect.stringContaining('; deposit address till-'), 'no change']);
  });

  it('given an unknown merchant, then an update is 404 and nothing is recorded', async () => {
    expect((await update('mer_doesnotexist', { name: 'Nobody' })).status).toBe(404);
    expect(await trailOf('mer_doesnotexist')).toEqual([]);
  });

  it('given more merchants than a page holds, then starting_after goes on from the last one, and an unknown one is 404 rather than an empty page', async () => {
    await Promise.all([createMerchant({}), createMerchant({})]);
    type Page = { data: MerchantAdminView[]; has_more: boolean };
    const [newest, second] = (await admin.get<Page>('/api/admin/merchants?limit=2')).body.data;
    expect((await admin.get<Page>('/api/admin/merchants?limit=1')).body).toEqual({ data: [newest], has_more: true });
    expect((await admin.get<Page>(`/api/admin/merchants?limit=1&starting_after=${newest.id}`)).body.data).toEqual([second]);
    expect((await admin.get('/api/admin/merchants?starting_after=mer_doesnotexist')).status).toBe(404);
  });
});
