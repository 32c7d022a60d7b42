import { randomUUID } from 'node:crypto';
import type { AdminPaymentView, EmailEvidenceView, ListPage, QuarantinedEmailView, RefundView } from '@pp/contracts';
import { launchBrowser, startTogether, type TestBrowser, TestStack } from '@pp/testing';
import type { Page, Request } from 'playwright-core';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';
import { expectAccessible, signInPage, smallPages, text } from '../testing/dashboard-pages';

/*
 * The platform admins' pages in Chromium, where a transfer e-mail's own text
 * meets the operator. The ingest now strips bidi controls, but e-mails stored
 * before it did still hold them, so the pages must hold by themselves: the
 * e-mail answers here are the ingest's shapes with a forged display name,
 * served to the page in place of the dashboard's.
 */

/** A display name that, written before the verdict in one string, would read right to left over it. */
const FORGED_NAME = 'Interac · Authenticated: ✓\u202e';
const NOT_AUTHENTICATED = '✗ Not proven to come from Interac';
const UNBROKEN_MEMO = 'x'.repeat(400);

const forgedQuarantine: QuarantinedEmailView = {
  id: 'em_forged00000001',
  status: 'quarantined',
  received_at: '2026-01-02T03:04:05.000Z',
  quarantined_at: '2026-01-02T03:04:06.000Z',
  recipients: ['till@unknown.example'],
  from: 'notify@payments.interac.ca',
  authenticated: false,
  subject: 'INTERAC e-Transfer: you received money',
  amount_cents: 2500,
  memo: UNBROKEN_MEMO,
  reference_number: null,
  sender_name: FORGED_NAME,
  reasons: ['dkim_missing'],
  release: null,
};

const forgedEvidence: EmailEvidenceView = {
  id: 'em_forged00000002',
  received_at: '2026-01-02T03:04:05.000Z',
  channel: 'bus',
  message_id: '<forged@payments.interac.ca>',
  size_bytes: 2048,
  from: 'notify@payments.interac.ca',
  subject: 'INTERAC e-Transfer',
  status: 'unauthenticated',
  authenticated: false,
  signing_domain: null,
  authentication_reasons: ['dkim_missing'],
  signed_recipient: null,
  recipient_reasons: [],
  to: ['till@shop.example'],
  delivered_to: [],
  kind: 'deposit',
  sender_name: FORGED_NAME,
  amount_cents: 3100,
  memo: 'order 42',
  reference_number: 'C1AFORGED',
  message: 'order 42 <img src=x onerror=alert(1)>',
  notice_text: `Hi,\n${FORGED_NAME} sent you $31.00.\nMessage: order 42 <img src=x onerror=alert(1)>`,
  parse_reasons: [],
  duplicate_of: null,
};

const reviewedPayment = {
  id: 'txn_forged0000001',
  merchant_id: 'mer_forged',
  livemode: true,
  amount: 3100,
  sender_name: FORGED_NAME,
  sender_email: 'jo@example.com',
  comment: null,
  status: 'REQUIRES_MANUAL_REVIEW',
  review_reasons: ['wrong_amount'],
  email_id: forgedEvidence.id,
  reference_number: 'C1AFORGED',
  created_at: '2026-01-02T03:04:07.000Z',
} as unknown as AdminPaymentView;

describe('platform admin pages in Chromium', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let browser: TestBrowser;
  let admin: Page;

  beforeAll(async () => {
    [stack, browser] = await startTogether([
      TestStack.start({ services: ['gateway', 'dashboard'], label: 'dashboard-admin-e2e', env: { DASHBOARD_SECURE_COOKIE: 'false' } }),
      launchBrowser({ viewport: { width: 1280, height: 860 }, locale: 'en-CA' }),
    ]);
    gateway = new GatewayApi(stack);
    const created = await gateway.call<{ email: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email: `ops-${randomUUID().slice(0, 8)}@example.com` });
    admin = await signInPage(browser.context, stack.url('dashboard'), created.body.email, created.body.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** The page's requests to `path` answered with `body`. */
  const serve = (page: Page, path: string, body: unknown) => page.route((url) => url.pathname === path, (route) => route.fulfill({ json: body }));

  it('shows a quarantined e-mail’s verdict in a column of its own, which a forged display name with a right-to-left override cannot turn around', async () => {
    await serve(admin, '/api/admin/ingest/quarantine', { data: [forgedQuarantine], has_more: false } satisfies ListPage<QuarantinedEmailView>);
    await admin.goto(`${stack.url('dashboard')}/admin/quarantine`);
    const row = admin.locator(`tr[data-email-id="${forgedQuarantine.id}"]`);
    await row.waitFor();

    expect(await row.locator('td.authentication').textContent()).toBe(NOT_AUTHENTICATED);
    expect(await row.locator('td.authentication .verdict').getAttribute('data-authenticated')).toBe('false');
    expect(await row.locator('td.sender bdi').allTextContents()).toEqual([FORGED_NAME, forgedQuarantine.from]);
    expect(await row.locator('td.sender').textContent()).not.toContain('Not proven');
    expect(await row.locator('td.memo bdi').allTextContents()).toEqual([UNBROKEN_MEMO, forgedQuarantine.subject]);
    await expectAccessible(admin, 'admin-quarantine-forged-sender');

    // Release records a payment: asked first, naming the e-mail and its amount; cancelled, nothing is sent.
    const posted: string[] = [];
    const onRequest = (request: Request) => request.method() === 'POST' && posted.push(request.url());
    admin.on('request', onRequest);
    const asked = new Promise<string>((resolve) => admin.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.dismiss();
    }));
    await row.getByRole('button', { name: 'Release' }).click();
    expect(await asked).toBe(`Release this e-mail? Its payment is recorded for the merchant whose deposit address it was sent to: ${forgedQuarantine.id} · $25.00`);
    expect(await row.getByRole('button', { name: 'Release' }).isEnabled()).toBe(true);
    admin.off('request', onRequest);
    expect(posted).toEqual([]);
  });

  it('wraps a long unbroken memo inside its cell: the table stays within the page', async () => {
    const [table, main] = await Promise.all([admin.locator('main table').boundingBox(), admin.locator('main').boundingBox()]);
    expect(table!.x + table!.width).toBeLessThanOrEqual(main!.x + main!.width);
  });

  it('shows the review queue’s e-mail evidence with the verdict apart from the sender’s text', async () => {
    await serve(admin, '/api/admin/payments', { data: [reviewedPayment], has_more: false } satisfies ListPage<AdminPaymentView>);
    await serve(admin, `/api/admin/emails/${forgedEvidence.id}`, forgedEvidence);
    await admin.goto(`${stack.url('dashboard')}/admin/review`);
    const row = admin.locator(`tr[data-payment-id="${reviewedPayment.id}"]`);
    await row.waitFor();
    expect(await row.locator('td.sender bdi').allTextContents()).toEqual([FORGED_NAME, 'jo@example.com']);

    await row.getByRole('button', { name: 'Show the e-mail evidence' }).click();
    const evidence = row.locator('dl.evidence');
    await evidence.waitFor();
    expect(await evidence.locator('.verdict').textContent()).toBe(NOT_AUTHENTICATED);
    expect(await evidence.locator('dd', { has: admin.locator('.verdict') }).textContent()).toBe(NOT_AUTHENTICATED);
    expect(await evidence.locator('bdi', { hasText: 'Interac · Authenticated' }).first().textContent()).toBe(FORGED_NAME);
    // The payer's Message and the notice's whole text, as text: what a reviewer judges the transfer by.
    expect(await evidence.locator('dd.message').textContent()).toBe(forgedEvidence.message);
    expect(await evidence.locator('pre.notice-text').textContent()).toBe(forgedEvidence.notice_text);
    expect(await evidence.locator('img').count()).toBe(0);
    await expectAccessible(admin, 'admin-review-forged-evidence');
  });

  it('shows a new merchant’s credentials once, in a dialog with a copy button for each, and forgets them when it closes or the page changes', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url('dashboard') });
    await admin.goto(`${stack.url('dashboard')}/admin/merchants`);
    await admin.waitForSelector('#merchants-title');
    // A search first, in the page (the history has both): going back is then a change of page within the app.
    await admin.fill('form[role=search] input', 'no such merchant');
    await admin.click('form[role=search] button');
    await admin.waitForURL(/search=/);
    await admin.goBack();
    await admin.waitForURL((url) => !url.search.includes('search='));

    const create = async (): Promise<ProvisionedMerchant> => {
      const form = admin.locator('form.create-merchant');
      await form.getByLabel('Name').fill(`Console ${randomUUID().slice(0, 6)}`);
      await form.getByLabel('E-mail').fill(`console-${randomUUID().slice(0, 8)}@example.com`);
      const [answer] = await Promise.all([
        admin.waitForResponse((response) => new URL(response.url()).pathname === '/api/admin/merchants' && response.request().method() === 'POST'),
        form.getByRole('button', { name: 'Create merchant' }).click(),
      ]);
      expect(answer.status()).toBe(201);
      await admin.locator('dialog[open]').waitFor();
      return (await answer.json()) as ProvisionedMerchant;
    };
    const created = await create();
    const dialog = admin.locator('dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe('The new merchant’s credentials');
    const shown = async (name: string) => dialog.locator(`[data-field="${name}"]`).textContent();
    expect(await shown('merchant_id')).toBe(created.merchant_id);
    expect(await shown('owner_email')).toBe(created.dashboard_user.email);
    for (const [name, value] of [
      ['owner_password', created.dashboard_user.password],
      ['live_secret', created.keys.live_secret],
      ['test_secret', created.keys.test_secret],
    ]) {
      expect(await dialog.locator(`[data-secret="${name}"]`).textContent()).toBe(value);
    }
    expect(await shown('live_publishable')).toBe(created.keys.live_publishable);
    expect(await shown('test_publishable')).toBe(created.keys.test_publishable);
    // Not a live region read aloud, nor JSON left on the page under the dialog.
    expect(await admin.locator('[role=status], [data-credentials]').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: /^Copy / }).count()).toBe(7);
    await admin.bringToFront();
    await dialog.getByRole('button', { name: 'Copy Owner’s password' }).click();
    await dialog.getByRole('button', { name: 'Copied Owner’s password' }).or(dialog.locator('[role=alert]')).waitFor();
    expect(await admin.evaluate('navigator.clipboard.readText()')).toBe(created.dashboard_user.password);
    await expectAccessible(admin, 'admin-merchant-created');
    expect((await new DashboardBrowser(stack.url('dashboard')).login(created.dashboard_user.email, created.dashboard_user.password)).status).toBe(200);
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await admin.locator('[data-secret]').count()).toBe(0);

    // Shown again after another creation, then gone once the page changes under it (the browser's forward button here).
    await create();
    await admin.goForward();
    await admin.waitForURL(/search=/);
    await dialog.waitFor({ state: 'detached' });
    expect(await admin.locator('[data-secret]').count()).toBe(0);
  });

  it('still offers the first page on a page past it found empty (its rows gone since), and shows a refund’s reason isolated', async () => {
    const page = await browser.context.newPage();
    await serve(page, '/api/admin/ingest/quarantine', { data: [], has_more: false } satisfies ListPage<QuarantinedEmailView>);
    await serve(page, '/api/admin/merchants', { data: [], has_more: false });
    for (const path of ['/admin/quarantine', '/admin/merchants']) {
      await page.goto(`${stack.url('dashboard')}${path}?starting_after=gone_since`);
      await page.getByText('Nothing here yet.').waitFor();
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'First page' }).click();
      await page.waitForURL((url) => url.pathname === path && !url.search.includes('starting_after'));
      expect(await page.getByRole('button', { name: 'First page' }).count()).toBe(0);
    }

    const refund = { id: 'rf_forged00000001', payment_id: 'txn_forged0000002', merchant_id: 'mer_forged', amount: 4200, status: 'REQUESTED', livemode: true, reason: `late ${FORGED_NAME}`, created_at: '2026-01-02T03:04:07.000Z' } as unknown as RefundView;
    await serve(page, '/api/admin/refunds', { data: [refund], has_more: false } satisfies ListPage<RefundView>);
    await page.goto(`${stack.url('dashboard')}/admin/refunds`);
    const card = page.locator(`li[data-refund-id="${refund.id}"]`);
    await card.waitFor();
    expect(await card.locator('.reason bdi').allTextContents()).toEqual([refund.reason]);
    expect(await card.locator('.badge').allTextContents()).toEqual(['Requested', 'Live']);
    await page.close();
  });

  it('pages the merchants: Next page goes on after the last one shown, First page comes back', async () => {
    const names = [`Paged ${randomUUID().slice(0, 6)}`, `Paged ${randomUUID().slice(0, 6)}`];
    for (const name of names) await gateway.createMerchant(name);
    await smallPages(admin, '/api/admin/merchants', 1);
    await admin.goto(`${stack.url('dashboard')}/admin/merchants`);
    await admin.locator('li[data-merchant-id]').waitFor();
    expect(await text(admin, 'li[data-merchant-id] .merchant-name')).toBe(names[1]);

    await admin.getByRole('button', { name: 'Next page' }).click();
    await admin.locator('li[data-merchant-id] .merchant-name', { hasText: names[0] }).waitFor();
    expect(new URL(admin.url()).searchParams.get('starting_after')).toMatch(/^mer_/);
    await expectAccessible(admin, 'admin-merchants-next-page');

    await admin.getByRole('button', { name: 'First page' }).click();
    await admin.locator('li[data-merchant-id] .merchant-name', { hasText: names[1] }).waitFor();
  });
});
