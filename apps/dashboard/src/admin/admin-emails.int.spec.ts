import { randomUUID } from 'node:crypto';
import type { AdminPaymentView, EmailEvidenceView, ListPage } from '@pp/contracts';
import { buildNotice, signEmail, TestStack, testDkimKey, waitFor, writeDnsOverrides } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';

/*
 * The review queue's e-mail evidence: a signed notice with the wrong amount
 * lands in review, and a platform admin reads what the ingest established
 * about it (sender, recipients, DKIM, parsed fields) through the dashboard.
 */

const DEPOSIT_ADDRESS = 'payments@evidence.example';

describe('GET /api/admin/emails/:id', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let shop: ProvisionedMerchant;
  let admin: DashboardBrowser;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'ingest', 'dashboard'],
      label: 'email-evidence',
      env: { DASHBOARD_SECURE_COOKIE: 'false', INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()) },
    });
    gateway = new GatewayApi(stack);
    shop = await gateway.createMerchant('Evidence');
    const patched = await fetch(`${stack.url('gateway')}/v1/admin/merchants/${shop.merchant_id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ etransfer_email: DEPOSIT_ADDRESS }),
    });
    expect(patched.status).toBe(200);
    const email = `ops-${randomUUID()}@example.com`;
    const created = await gateway.call<{ password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email });
    admin = new DashboardBrowser(stack.url('dashboard'));
    expect((await admin.login(email, created.body.password)).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('given a signed notice for the wrong amount, then the review queue links its e-mail and the evidence shows what the ingest read', async () => {
    const session = await gateway.createSession(shop, {}, shop.keys.live_secret);
    const raw = await signEmail(buildNotice({ to: DEPOSIT_ADDRESS, message: session.memo, amount: '$30.00', messageId: `<evidence.${stack.namespace}@payments.interac.ca>` }));
    const posted = await fetch(`${stack.url('gateway')}/v1/internal/ingest-email`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.INGEST_TOKEN}`, 'content-type': 'message/rfc822' },
      body: raw,
    });
    expect(posted.status).toBe(202);
    const { id: emailId } = (await posted.json()) as { id: string };

    const queued = await waitFor('the payment under review', async () => {
      const page = await admin.get<ListPage<AdminPaymentView>>('/api/admin/payments?status=REQUIRES_MANUAL_REVIEW');
      return page.body.data.find((payment) => payment.email_id === emailId);
    });
    expect(queued.review_reasons).toContain('wrong_amount');

    const evidence = await admin.get<EmailEvidenceView>(`/api/admin/emails/${emailId}`);
    expect(evidence.status).toBe(200);
    expect(evidence.body).toMatchObject({
      id: emailId,
      channel: 'bus',
      status: 'parsed',
      authenticated: true,
      signing_domain: 'payments.interac.ca',
      authentication_reasons: [],
      signed_recipient: DEPOSIT_ADDRESS,
      to: [DEPOSIT_ADDRESS],
      memo: session.memo,
      message: session.memo,
      notice_text: expect.stringMatching(new RegExp(`\\$30\\.00[\\s\\S]*${session.memo}`)),
      amount_cents: 3000,
      kind: 'deposit',
      from: expect.stringContaining('payments.interac.ca'),
      sender_name: expect.any(String),
    });
    expect(evidence.body).not.toHaveProperty('raw');
  });

  it('answers 404 for an unknown or malformed id, and refuses a merchant’s user', async () => {
    expect((await admin.get('/api/admin/emails/em_doesnotexist00')).status).toBe(404);
    expect((await admin.get('/api/admin/emails/not-an-id')).status).toBe(404);
    const owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(shop.dashboard_user.email, shop.dashboard_user.password)).status).toBe(200);
    expect((await owner.get('/api/admin/emails/em_doesnotexist00')).status).toBe(403);
  });
});
