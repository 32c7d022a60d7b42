import { randomUUID } from 'node:crypto';
import type { ListPage, QuarantinedEmailView, RetryQuarantinedEmailReply } from '@pp/contracts';
import { TestStack, testDkimKey, waitFor, writeDnsOverrides } from '@pp/testing';
import type { Pool } from 'pg';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';

/*
 * Releasing a quarantined e-mail from the dashboard, twice: the second
 * admin's late click answers the same release, and the trail records it as
 * `already released`, so it names one admin as having released it. The bus's
 * `changed` never reaches the browser.
 */
describe('POST /api/admin/ingest/quarantine/:id/release', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let db: Pool;
  let shop: ProvisionedMerchant;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'ingest', 'dashboard'],
      label: 'dashboard-quarantine',
      env: { DASHBOARD_SECURE_COOKIE: 'false', INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()) },
    });
    gateway = new GatewayApi(stack);
    db = await stack.sql();
    shop = await gateway.createMerchant('Quarantine');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  async function platformAdmin(): Promise<{ id: string; browser: DashboardBrowser }> {
    const email = `ops-${randomUUID().slice(0, 8)}@example.com`;
    const created = await gateway.call<{ id: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email });
    const browser = new DashboardBrowser(stack.url('dashboard'));
    expect((await browser.login(email, created.body.password)).status).toBe(200);
    return { id: created.body.id, browser };
  }

  it('given an e-mail released by one admin, when another releases it again, then both get the release and the trail says the second found it already released', async () => {
    const [first, second] = await Promise.all([platformAdmin(), platformAdmin()]);
    const address = `till.${randomUUID().slice(0, 8)}@unknown.example`;
    const { id } = await gateway.postNoticeTo(shop, address);
    await waitFor('the e-mail in quarantine', async () =>
      (await first.browser.get<ListPage<QuarantinedEmailView>>('/api/admin/ingest/quarantine')).body.data.some((email) => email.id === id),
    );
    expect((await gateway.call(`/v1/admin/merchants/${shop.merchant_id}`, stack.env.ADMIN_TOKEN!, { etransfer_email: address }, 'PATCH')).status).toBe(200);

    const released = await first.browser.post<RetryQuarantinedEmailReply>(`/api/admin/ingest/quarantine/${id}/release`);
    expect(released).toMatchObject({ status: 200, body: { id, merchant_id: shop.merchant_id, disposition: 'confirmed', payment_id: expect.stringMatching(/^txn_/), released_by: first.id } });
    expect(released.body).not.toHaveProperty('changed');
    const again = await second.browser.post<RetryQuarantinedEmailReply>(`/api/admin/ingest/quarantine/${id}/release`);
    expect(again).toMatchObject({ status: 200, body: released.body });
    expect(again.body).not.toHaveProperty('changed');

    const trail = await db.query(`SELECT actor_id, action, merchant_id, livemode, detail FROM gateway.audit_entries WHERE target_id = $1 ORDER BY position`, [id]);
    const release = { action: 'quarantine.released', merchant_id: shop.merchant_id, livemode: true };
    expect(trail.rows).toEqual([
      { ...release, actor_id: first.id, detail: `confirmed ${released.body.payment_id}` },
      { ...release, actor_id: second.id, detail: 'already released' },
    ]);
  });
});
