import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { PaymentView } from '@pp/contracts';
import { launchBrowser, startTogether, type TestBrowser, TestStack, waitFor } from '@pp/testing';
import type { Page } from 'playwright-core';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from './testing/dashboard-client';
import { ARTIFACTS, expectAccessible, signInPage, smallPages } from './testing/dashboard-pages';

/*
 * The Team and Audit pages in Chromium: the owner adds a viewer (password
 * shown once), the viewer is refused a refund by the server and sees no
 * refund button, the owner removes the viewer and the viewer's open session
 * is refused, and the audit lists (merchant and platform admin) show who did
 * what, as text. The owner uses 127.0.0.1 and the others localhost: cookies
 * are per host, so both stay signed in at once.
 */

const HOSTILE_REASON = '<img src=x onerror="window.__xss=1">changed mind';

/** A POST from the page itself, with its session's CSRF token, as the app would send it. */
const postFromPage = (page: Page, path: string, body: unknown) =>
  page.evaluate(
    async ([target, payload]) => {
      const session = await fetch('/api/auth/session');
      const token = session.ok ? ((await session.json()) as { csrf_token: string }).csrf_token : '';
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify(payload) });
      return { status: answer.status, body: (await answer.json()) as unknown };
    },
    [path, body] as const,
  );

describe('team and audit pages in Chromium', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let merchant: ProvisionedMerchant;
  let browser: TestBrowser;
  let ownerUrl: string;
  let otherUrl: string;

  beforeAll(async () => {
    [stack, browser] = await startTogether([
      TestStack.start({ services: ['gateway', 'sessions', 'ledger', 'refunds', 'webhooks', 'dashboard'], label: 'dashboard-team-e2e', env: { DASHBOARD_SECURE_COOKIE: 'false' } }),
      launchBrowser({ viewport: { width: 1280, height: 860 }, locale: 'en-CA' }),
    ]);
    ownerUrl = stack.url('dashboard');
    otherUrl = ownerUrl.replace('127.0.0.1', 'localhost');
    gateway = new GatewayApi(stack);
    merchant = await gateway.createMerchant('Team Shop');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function simulatedPayment(): Promise<PaymentView> {
    const session = await gateway.createSession(merchant);
    const simulated = await gateway.call<{ transaction: PaymentView }>('/v1/sandbox/simulate-payment', merchant.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' });
    return simulated.body.transaction;
  }

  it('lets the owner add a viewer who is refused a refund, remove them (their open session gets 401 and their tab the sign-in page), and see every action in the audit list', async () => {
    const [refused, refunded] = await Promise.all([simulatedPayment(), simulatedPayment()]);
    const owner = await signInPage(browser.context, ownerUrl, merchant.dashboard_user.email, merchant.dashboard_user.password);
    await owner.click('header nav >> text=Team');
    await owner.waitForSelector(`tr[data-user-id="${merchant.dashboard_user.id}"]`);

    const viewerEmail = `viewer-${randomUUID().slice(0, 8)}@example.com`;
    await owner.fill('form.add-user input[name=email]', viewerEmail);
    await owner.selectOption('form.add-user select[name=role]', 'viewer');
    await owner.click('form.add-user button[type=submit]');
    const password = (await owner.locator('dialog [data-secret]').textContent())!;
    expect(password).toMatch(/^[A-Za-z0-9]{20,}$/);
    await expectAccessible(owner, 'team-user-added');
    await owner.locator('dialog').getByRole('button', { name: 'Done', exact: true }).click();
    const viewerRow = owner.locator('tr[data-user-id]', { hasText: viewerEmail });
    await viewerRow.waitFor();
    // Once closed, the password is gone from the page for good.
    await owner.locator('[data-secret]').waitFor({ state: 'detached' });
    expect(await owner.locator('[data-secret]').count()).toBe(0);
    await expectAccessible(owner, 'team');

    const viewer = await signInPage(browser.context, otherUrl, viewerEmail, password);
    expect(await viewer.locator('header nav a', { hasText: /Team|Audit/ }).count()).toBe(0);
    await viewer.goto(`${otherUrl}/payments/${refused.id}`);
    await viewer.waitForSelector('#payment-title');
    expect(await viewer.getByRole('button', { name: 'Request a full refund' }).count()).toBe(0);
    expect(await postFromPage(viewer, `/api/payments/${refused.id}/refund`, {})).toEqual({ status: 403, body: { error: 'Your role does not allow this action' } });
    await viewer.screenshot({ path: join(ARTIFACTS, 'viewer-no-refund-button.png'), fullPage: true });

    // Nor a simulator, which the server refuses a viewer too: not on the sessions list, not on a pending session's page.
    const pending = await gateway.createSession(merchant);
    await viewer.goto(`${otherUrl}/checkout-sessions`);
    const pendingRow = viewer.locator(`tr[data-session-id="${pending.id}"]`);
    await pendingRow.waitFor();
    expect(await pendingRow.locator('.badge').getAttribute('data-status')).toBe('PENDING');
    expect(await viewer.locator('main button, main select').count()).toBe(0);
    expect(await postFromPage(viewer, '/api/sandbox/simulate', { session_id: pending.id, outcome: 'confirmed' })).toEqual({ status: 403, body: { error: 'Your role does not allow this action' } });
    await pendingRow.locator('a').click();
    await viewer.waitForSelector('#session-title');
    await viewer.locator('.fields .badge[data-status="PENDING"]').waitFor();
    expect(await viewer.getByRole('button', { name: /Simulate/ }).count()).toBe(0);
    expect(await viewer.locator('main select').count()).toBe(0);
    await expectAccessible(viewer, 'viewer-session-no-simulator');

    await owner.goto(`${ownerUrl}/payments/${refunded.id}`);
    await owner.fill('.refund-form input', HOSTILE_REASON);
    await owner.getByRole('button', { name: 'Request a full refund' }).click();
    await owner.waitForSelector('ul.refunds li');
    // The reason as the user wrote it, isolated and inert.
    expect(await owner.locator('ul.refunds li bdi').allTextContents()).toEqual([HOSTILE_REASON]);
    const api = new DashboardBrowser(ownerUrl);
    expect((await api.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
    const key = await api.post<{ id: string }>('/api/developers/keys', { type: 'publishable' });
    expect(key.status).toBe(201);

    await owner.click('header nav >> text=Team');
    owner.once('dialog', (dialog) => void dialog.accept());
    await viewerRow.getByRole('button', { name: 'Remove' }).click();
    await viewerRow.waitFor({ state: 'detached' });
    expect(await viewer.evaluate(async () => (await fetch('/api/payments')).status)).toBe(401);
    // The viewer's tab, still showing the viewer, goes back to sign-in at its next answer.
    await viewer.click('header nav >> text=Payments');
    await viewer.waitForSelector('input[name=email]');
    expect(await viewer.locator('header').count()).toBe(0);

    await owner.click('header nav >> text=Audit log');
    const row = (action: string) => owner.locator(`tr[data-action="${action}"]`).first();
    await row('team.user_removed').waitFor();
    for (const action of ['team.user_removed', 'api_key.created', 'refund.requested', 'team.user_added']) {
      expect(await row(action).locator('.actor').textContent()).toBe(`${merchant.dashboard_user.email} (Owner)`);
    }
    expect(await row('api_key.created').locator('.target').textContent()).toBe(key.body.id);
    expect(await row('refund.requested').locator('.detail').textContent()).toBe(HOSTILE_REASON);
    expect(await row('refund.requested').locator('.detail bdi').count()).toBe(1);
    expect(await owner.locator('td img').count()).toBe(0);
    await expectAccessible(owner, 'audit');
    await owner.selectOption('#action-filter', 'refund.requested');
    await owner.waitForURL(/action=refund\.requested/);
    // The list shows no rows while the filtered answer is on its way, so the filtered row is what to wait for.
    await owner.locator('tr[data-action="refund.requested"]').waitFor();
    expect(await owner.locator('tr[data-action]:not([data-action="refund.requested"])').count()).toBe(0);
    expect(await owner.locator('tr[data-action="refund.requested"]').count()).toBe(1);
    await owner.selectOption('header select', 'fr');
    await owner.waitForSelector('#audit-title >> text=Journal d’audit');
    // The role in the reader's language, as in the header.
    expect(await row('refund.requested').locator('.actor').textContent()).toBe(`${merchant.dashboard_user.email} (Propriétaire)`);
    await expectAccessible(owner, 'audit-fr');
    expect(await owner.evaluate('window.__xss')).toBeUndefined();
  });

  it('shows platform admins every merchant’s audit entries, filtered by merchant', async () => {
    const created = await gateway.call<{ email: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email: `ops-${randomUUID().slice(0, 8)}@example.com` });
    const admin = await signInPage(browser.context, otherUrl, created.body.email, created.body.password);
    await admin.click('header nav >> text=Audit log');
    await admin.waitForSelector('tr[data-action]');
    await admin.fill('input[name=merchant_id]', merchant.merchant_id);
    await admin.click('form[role=search] button');
    await admin.waitForURL(new RegExp(`merchant_id=${merchant.merchant_id}`));
    const rows = admin.locator('tr[data-action]');
    await waitFor('only the merchant’s entries', async () => (await rows.count()) > 0 && (await rows.filter({ hasNotText: merchant.merchant_id }).count()) === 0);
    await expectAccessible(admin, 'admin-audit');

    // A row a page, in French: the pager is named in French too, and leads on and back.
    await smallPages(admin, '/api/admin/audit', 1);
    await admin.reload();
    await rows.first().waitFor();
    await admin.selectOption('header select', 'fr');
    const pager = admin.getByRole('navigation', { name: 'Pages du journal d’audit' });
    await pager.getByRole('button', { name: 'Page suivante' }).click();
    await admin.waitForURL(/starting_after=/);
    await pager.getByRole('button', { name: 'Première page' }).waitFor();
    await expectAccessible(admin, 'admin-audit-fr-paged');
  });

  it('shows a viewer who types the Team or Audit log path the not-found page: no form to add a user, no audit entries', async () => {
    const added = await (await stack.bus()).request('identity.team.add.v1', { merchant_id: merchant.merchant_id, email: `viewer-${randomUUID().slice(0, 8)}@example.com`, role: 'viewer' });
    // Signed in afresh: the other host's cookie belongs to whoever signed in there before.
    await browser.context.clearCookies();
    const viewer = await signInPage(browser.context, otherUrl, added.email, added.password);
    for (const path of ['/team', '/audit']) {
      await viewer.goto(`${otherUrl}${path}`);
      await viewer.locator('#not-found-title').or(viewer.locator('#team-title, #audit-title')).waitFor();
      expect([path, await viewer.locator('#not-found-title').count()]).toEqual([path, 1]);
      expect(await viewer.locator('main form, main table').count()).toBe(0);
    }
    expect(await viewer.getByRole('button', { name: 'Add user' }).count()).toBe(0);
    await expectAccessible(viewer, 'viewer-audit-not-found');
  });
});
