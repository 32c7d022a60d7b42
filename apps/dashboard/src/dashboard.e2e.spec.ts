import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type PaymentView, type RefundView, type WebhookDeliveryAttemptView, WebhookDeliveryStatus } from '@pp/contracts';
import { genuineTransfer, launchBrowser, startTogether, type TestBrowser, TestStack, waitFor } from '@pp/testing';
import type { Page, Route } from 'playwright-core';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from './testing/dashboard-client';
import { ARTIFACTS, expectAccessible, signInPage, smallPages, text } from './testing/dashboard-pages';

/*
 * The dashboard in Chromium (playwright-core with Debian's chromium): an
 * owner and a platform admin at work (the viewer and the team: team-audit.e2e.spec.ts), a
 * cross-site request refused, hostile text rendered inert, axe-core on every
 * page. Screenshots go to artifacts/dashboard/.
 */

const HOSTILE_REFERENCE = `<img src=x onerror="window.__xss=1">order-${randomUUID().slice(0, 8)}`;
const HOSTILE_METADATA = { note: '<script>window.__xss=2</script>', link: 'javascript:window.__xss=3' };

describe('dashboard in Chromium', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let merchant: ProvisionedMerchant;
  let browser: TestBrowser;
  let evilSite: Server;
  let evilOrigin: string;
  let dashboardUrl: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [stack, browser] = await startTogether([
      TestStack.start({ services: ['gateway', 'sessions', 'ledger', 'refunds', 'webhooks', 'dashboard'], label: 'dashboard-e2e', env: { DASHBOARD_SECURE_COOKIE: 'false' } }),
      launchBrowser({ viewport: { width: 1280, height: 860 }, locale: 'en-CA' }),
    ]);
    dashboardUrl = stack.url('dashboard');
    gateway = new GatewayApi(stack);
    merchant = await gateway.createMerchant('Maple <b>Goods</b>');
    evilSite = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>evil</h1>'));
    await new Promise<void>((resolve) => evilSite.listen(0, '127.0.0.1', resolve));
    // Another site than the dashboard's 127.0.0.1 (different host name), as an attacker's page would be.
    evilOrigin = `http://localhost:${(evilSite.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    evilSite?.close();
    await stack?.stop();
  });

  async function signIn(email: string, password: string): Promise<Page> {
    await browser.context.clearCookies();
    return signInPage(browser.context, dashboardUrl, email, password);
  }

  async function platformAdmin(): Promise<{ email: string; password: string }> {
    return (await gateway.call<{ email: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email: `ops-${randomUUID().slice(0, 8)}@example.com` })).body;
  }

  it('signs the owner in, shows an API-created session, simulates it and shows the payment CONFIRMED with its events; hostile text stays text', async () => {
    const page = await browser.context.newPage();
    const csp: string[] = [];
    page.on('console', (message) => message.text().includes('Content Security Policy') && csp.push(message.text()));
    const response = await page.goto(dashboardUrl);
    expect(response!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector('input[name=email]');
    await expectAccessible(page, 'sign-in');
    await page.close();

    const owner = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await owner.waitForSelector('#home-title'); // merchants land on Home
    await owner.click('header nav >> text=Payments');
    await owner.waitForSelector('#payments-title');
    await owner.waitForSelector('text=Nothing here yet.');
    await expectAccessible(owner, 'payments-empty');

    const session = await gateway.createSession(merchant, { reference: HOSTILE_REFERENCE, metadata: HOSTILE_METADATA });
    await owner.click('header nav >> text=Checkout sessions');
    const row = owner.locator(`tr[data-session-id="${session.id}"]`);
    await row.waitFor();
    expect(await row.locator('.reference').textContent()).toBe(HOSTILE_REFERENCE);
    await expectAccessible(owner, 'checkout-sessions');

    await row.locator('button').click();
    await owner.waitForSelector('#payment-title');
    await waitFor('the payment.confirmed event on the page', async () => {
      if ((await owner.locator('[data-event-type="payment.confirmed"]').count()) > 0) return true;
      await owner.reload();
      await owner.waitForSelector('#payment-title');
      return false;
    });
    // Statuses read in the reader's language; the wire value stays on the badge.
    expect(await text(owner, '.fields .badge')).toBe('Confirmed');
    expect(await owner.getAttribute('.fields .badge', 'data-status')).toBe('CONFIRMED');
    expect(await owner.locator('.fields dd.sender bdi').count()).toBeGreaterThan(0);
    expect(await owner.locator('.fields .reference').textContent()).toBe(HOSTILE_REFERENCE);
    expect(JSON.parse((await owner.locator('.metadata').textContent()) ?? '{}')).toEqual(HOSTILE_METADATA);
    expect(await owner.locator('.timeline img, .fields img, .fields script').count()).toBe(0);
    await expectAccessible(owner, 'payment-detail');

    await owner.click('header nav >> text=Payments');
    await owner.selectOption('#status-filter', 'CONFIRMED');
    await owner.waitForURL(/status=CONFIRMED/);
    await owner.waitForSelector('tbody tr');
    expect(await owner.locator('tbody tr').count()).toBe(1);
    expect(await text(owner, 'tbody .badge')).toBe('Confirmed');
    await expectAccessible(owner, 'payments-confirmed');

    await owner.selectOption('header select', 'fr');
    await owner.waitForSelector('#payments-title >> text=Paiements');
    expect(await owner.getAttribute('html', 'lang')).toBe('fr');
    // In French, statuses and the user's role too: no wire value left in English.
    expect(await text(owner, 'tbody .badge')).toBe('Confirmé');
    expect(await owner.getAttribute('tbody .badge', 'data-status')).toBe('CONFIRMED');
    expect(await text(owner, '#status-filter option[value="REQUIRES_MANUAL_REVIEW"]')).toBe('À vérifier');
    expect(await text(owner, 'header a[href="/account"]')).toBe(`${merchant.dashboard_user.email} (Propriétaire)`);
    await expectAccessible(owner, 'payments-fr');

    expect(await owner.evaluate('window.__xss')).toBeUndefined();
    expect(csp).toEqual([]);
  });

  it('isolates the payer’s name and comment, a refund’s reason and a delivery’s error on the payments list and the payment detail, labelled in the reader’s language', async () => {
    // Forged answers, as a payer (or an earlier release's stored text) could make them: a right-to-left override in each.
    const forged = {
      id: 'txn_forged0000001',
      etransfer_ref: null,
      amount: 2500,
      sender_name: 'Jo \u202eReviewed: OK',
      sender_email: 'jo@example.com',
      comment: 'thanks \u202e!detaerC',
      status: 'CONFIRMED',
      verification_method: 'AUTO_EMAIL',
      created_at: '2026-01-02T03:04:05.000Z',
      session_id: 'cs_forged0000001',
      livemode: false,
      review_reasons: [],
      verified_by: null,
    } satisfies PaymentView;
    const refund = { id: 'rf_forged0000001', payment_id: forged.id, merchant_id: merchant.merchant_id, amount: 2500, status: 'REQUESTED', livemode: false, reason: 'late \u202edelivery' } as unknown as RefundView;
    const session = { id: forged.session_id, reference: 'order-1', memo: 'M-1', status: 'COMPLETED', expires_at: '2026-01-02T03:34:05.000Z', metadata: null };
    // A delivery's error may quote the merchant's own server.
    const delivery = {
      webhook_id: 'we_forged0000001',
      url: 'https://shop.example/hooks',
      delivery_status: WebhookDeliveryStatus.Failed,
      http_status: 500,
      attempt: 1,
      retry_count: 0,
      latency_ms: 12,
      error_message: 'upstream said \u202e!deliver OK',
      next_retry_at: null,
      created_at: '2026-01-02T03:04:06.000Z',
    } satisfies WebhookDeliveryAttemptView;
    const event = { id: 'evt_forged0000001', type: 'payment.confirmed', livemode: false, data: {}, created_at: '2026-01-02T03:04:05.000Z', deliveries: [delivery] };
    const page = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await page.route((url) => url.pathname === '/api/payments', (route) => route.fulfill({ json: { data: [forged], has_more: false } }));
    await page.route((url) => url.pathname === `/api/payments/${forged.id}`, (route) => route.fulfill({ json: { payment: forged, session, events: [event], refunds: [refund] } }));
    await page.goto(`${dashboardUrl}/payments`);
    const row = page.locator('tbody tr', { hasText: forged.id });
    await row.waitFor();
    expect(await row.locator('td.sender bdi').allTextContents()).toEqual([forged.sender_name]);

    await row.locator('a').click();
    await page.waitForSelector('#payment-title');
    // The title shows before the payment's fields: wait for them, not only for it.
    await page.locator('.fields dd.sender bdi').first().waitFor();
    expect(await page.locator('.fields dd.sender bdi').allTextContents()).toEqual([forged.sender_name, forged.sender_email]);
    expect(await page.locator('.fields dt', { hasText: 'Comment' }).count()).toBe(1);
    expect(await page.locator('.fields dd.comment bdi').allTextContents()).toEqual([forged.comment]);
    expect(await page.locator('ul.refunds bdi').allTextContents()).toEqual([refund.reason]);
    expect(await page.locator('.timeline .deliveries li bdi').allTextContents()).toEqual([delivery.error_message]);
    await expectAccessible(page, 'payment-detail-isolated');

    await page.selectOption('header select', 'fr');
    await page.locator('.fields dt', { hasText: 'Commentaire' }).waitFor();
    expect(await page.locator('.fields dt', { hasText: 'Identifiant' }).count()).toBe(1);
    expect(await page.locator('.fields .badge').allTextContents()).toEqual(['Confirmé', 'Terminé']);
    expect(await page.locator('ul.refunds .badge').allTextContents()).toEqual(['Demandé']);
    await page.close();
  });

  it('creates a key shown once on the Developers page, revokes it after confirmation, and the API then refuses it with 401', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboardUrl });
    const owner = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await owner.click('header nav >> text=Developers');
    await owner.waitForSelector('#keys-title');
    await owner.waitForSelector('tr[data-key-id]');
    await owner.getByRole('button', { name: 'Create key', exact: true }).click();
    const secret = await owner.locator('dialog [data-secret]').textContent();
    expect(secret).toMatch(/^pp_live_test_/);
    await owner.bringToFront();
    await owner.locator('dialog').getByRole('button', { name: 'Copy', exact: true }).click();
    await owner.locator('dialog').getByRole('button', { name: /Copied/ }).or(owner.locator('dialog [role=alert]')).waitFor();
    expect(await owner.locator('dialog [role=alert]').count()).toBe(0);
    expect(await owner.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await expectAccessible(owner, 'developers-key-created');
    await owner.locator('dialog').getByRole('button', { name: 'Done', exact: true }).click();
    expect((await gateway.call('/v1/payments', secret!)).status).toBe(200);

    const row = owner.locator('tr[data-key-id]', { hasText: secret!.slice(-4) });
    expect(await row.locator('td').nth(1).textContent()).toBe('Secret');
    owner.once('dialog', (dialog) => void dialog.accept());
    await row.locator('button', { hasText: 'Revoke' }).click();
    await row.locator('.badge[data-status="REVOKED"]', { hasText: 'Revoked' }).waitFor();
    expect((await gateway.call('/v1/payments', secret!)).status).toBe(401);
    await expectAccessible(owner, 'developers');
  });

  it('refuses a state-changing request sent from another site while the owner is signed in', async () => {
    const session = await gateway.createSession(merchant);
    await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    const evil = await browser.context.newPage();
    await evil.goto(evilOrigin);
    // The dashboard answers (403), and its Cross-Origin-Resource-Policy keeps even that answer from the attacker's page.
    const answered = evil.waitForEvent('requestfailed', (request) => request.url().endsWith('/api/sandbox/simulate'));
    await evil.evaluate(
      ([url, sessionId]) =>
        fetch(url, { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ session_id: sessionId, outcome: 'confirmed' }) }).catch(() => undefined),
      [`${dashboardUrl}/api/sandbox/simulate`, session.id] as const,
    );
    expect((await answered).failure()?.errorText).toBe('net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin');
    const owner = new DashboardBrowser(dashboardUrl);
    await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password);
    const listed = await owner.get<{ data: { id: string; status: string }[] }>('/api/checkout-sessions');
    expect(listed.body.data.find((row) => row.id === session.id)?.status).toBe('PENDING');
  });

  it('moves a tab over to whoever signed in since in another tab once the server refuses its CSRF token', async () => {
    const created = await platformAdmin();
    const tab = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await tab.click('header nav >> text=Developers');
    await tab.waitForSelector('tr[data-key-id]');
    const other = await browser.context.newPage();
    await other.goto(dashboardUrl);
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.fill('input[name=email]', created.email);
    await other.fill('input[name=password]', created.password);
    await other.click('button[type=submit]');
    await other.waitForSelector('#refunds-title');

    await tab.getByRole('button', { name: 'Create key', exact: true }).click();
    await tab.waitForSelector('#refunds-title');
    expect(await tab.locator('header a[href="/account"]').textContent()).toBe(`${created.email} (Platform admin)`);
    expect(await tab.locator('#keys-title, dialog [data-secret]').count()).toBe(0);
  });

  it('given a password changed on the account page, then the page goes on with the new session’s CSRF token: a second change straight after is taken', async () => {
    const changing = await gateway.createMerchant('Changing');
    const page = await signIn(changing.dashboard_user.email, changing.dashboard_user.password);
    await page.click('header a[href="/account"]');
    const change = async (current: string, next: string, repeated = next) => {
      await page.fill('input[name=current_password]', current);
      await page.fill('input[name=new_password]', next);
      await page.fill('input[name=confirm_password]', repeated);
      await page.click('main form button[type=submit]');
      await page.waitForSelector('[role=status], [role=alert]');
      return { status: await page.locator('[role=status]').allTextContents(), alerts: await page.locator('[role=alert]').allTextContents() };
    };
    // The new password typed twice, differently: refused on the page, nothing sent.
    const sent: string[] = [];
    page.on('request', (request) => request.url().endsWith('/api/auth/password') && sent.push(request.url()));
    expect(await change(changing.dashboard_user.password, 'a first new passphrase', 'a first new passfrase')).toEqual({ status: [], alerts: ['The two new passwords are not the same.'] });
    expect(sent).toEqual([]);
    expect(await page.getByLabel('Confirm the new password').count()).toBe(1);
    expect(await change(changing.dashboard_user.password, 'a first new passphrase')).toEqual({ status: ['Password changed.'], alerts: [] });
    // With the token of the session the first change ended, this one would be refused (403 'Missing or wrong CSRF token').
    expect(await change('a first new passphrase', 'a second new passphrase')).toEqual({ status: ['Password changed.'], alerts: [] });
    expect((await new DashboardBrowser(dashboardUrl).login(changing.dashboard_user.email, 'a second new passphrase')).status).toBe(200);

    await page.selectOption('header select', 'fr');
    expect(await change('a second new passphrase', 'a third new passphrase', 'another one entirely')).toEqual({ status: [], alerts: ['Les deux nouveaux mots de passe ne sont pas identiques.'] });
    expect(sent).toHaveLength(2);
    await page.close();
  });

  it('keeps the user signed in, with the error shown, when the server does not confirm the sign-out; signs out once it does', async () => {
    const page = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await page.waitForSelector('#home-title');
    const failing = (route: Route) => route.fulfill({ status: 503, json: { error: 'Session store unavailable' } });
    await page.route('**/api/auth/logout', failing);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('header [role=alert]').waitFor();
    expect(await text(page, 'header [role=alert]')).toBe('Could not sign out; you are still signed in: Session store unavailable');
    expect(await page.locator('#home-title').count()).toBe(1);
    expect(await page.locator('input[name=email]').count()).toBe(0);

    await page.unroute('**/api/auth/logout', failing);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForSelector('input[name=email]');
    expect(new URL(page.url()).pathname).toBe('/');
    expect((await page.evaluate(async () => (await fetch('/api/auth/session')).status))).toBe(401);
    await page.close();
  });

  it('lets a platform admin walk a live refund through approve, mark sent and complete', async () => {
    const created = await platformAdmin();
    const refund = await liveRefund();
    const admin = await signIn(created.email, created.password);
    const card = admin.locator(`li[data-refund-id="${refund.id}"]`);
    await card.waitFor();
    await expectAccessible(admin, 'admin-refund-queue');
    // Each card's buttons are told apart by name: the label and the refund it acts on.
    expect(await admin.getByRole('button', { name: `Approve ${refund.id}`, exact: true }).count()).toBe(1);
    // Approve and Complete are asked first, the question naming the amount and the merchant; cancelled, nothing is sent.
    const asked: string[] = [];
    const answer = (accept: boolean) => admin.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
    const posted: string[] = [];
    admin.on('request', (request) => request.method() === 'POST' && request.url().includes(`/api/admin/refunds/${refund.id}/`) && posted.push(new URL(request.url()).pathname));
    answer(false);
    await card.locator('button', { hasText: 'Approve' }).click();
    await waitFor('the question asked', async () => asked.length === 1);
    expect(asked[0]).toBe(`Approve this refund? The money is then to be sent back: $25.00 · Merchant ${merchant.merchant_id} · ${refund.id}`);
    expect(await card.locator('button', { hasText: 'Approve' }).isEnabled()).toBe(true);
    expect(await card.locator('.badge[data-status="REQUESTED"]').textContent()).toBe('Requested');
    expect(posted).toEqual([]);
    answer(true);
    await card.locator('button', { hasText: 'Approve' }).click();
    await card.waitFor({ state: 'detached' });
    expect(posted).toEqual([`/api/admin/refunds/${refund.id}/approve`]);
    await admin.selectOption('#status-filter', 'APPROVED');
    // Mark sent is the claim taken before the money moves: the console says so while the refund can still be rejected.
    await card.locator('p', { hasText: 'Mark it sent before you send the e-Transfer' }).waitFor();
    await card.locator('button', { hasText: 'Mark sent' }).click();
    await admin.selectOption('#status-filter', 'SENT');
    await card.locator('label', { hasText: 'Outbound reference' }).locator('input').fill('CA7QmZ');
    await card.locator('label', { hasText: 'Evidence note' }).locator('input').fill('Deposit seen at the bank');
    await card.screenshot({ path: join(ARTIFACTS, 'admin-refund-sent.png') });
    answer(true);
    await card.locator('button', { hasText: 'Complete' }).click();
    await card.waitFor({ state: 'detached' });
    expect(asked[2]).toBe(`Mark this refund completed? Only once the e-Transfer has been sent: $25.00 · Merchant ${merchant.merchant_id} · ${refund.id}`);
    await admin.selectOption('#status-filter', 'COMPLETED');
    await card.locator('.badge[data-status="COMPLETED"]', { hasText: 'Completed' }).waitFor();

    await admin.click('header nav >> text=Review queue');
    await admin.waitForSelector('#review-title');
    await expectAccessible(admin, 'admin-review-queue');
    await admin.click('header nav >> text=Merchants');
    await admin.fill('input[type=search]', 'Maple');
    await admin.click('form[role=search] button');
    const row = admin.locator(`li[data-merchant-id="${merchant.merchant_id}"]`);
    await row.waitFor();
    expect(await row.locator('.merchant-name').textContent()).toBe('Maple <b>Goods</b>');
    expect(await row.locator('b').count()).toBe(0);
    await expectAccessible(admin, 'admin-merchants');

    // Another admin sets the deposit address meanwhile: saving the frame ancestors alone keeps it, and the card shows it after the save.
    const address = `till.${randomUUID().slice(0, 8)}@maple.example`;
    expect((await gateway.call(`/v1/admin/merchants/${merchant.merchant_id}`, stack.env.ADMIN_TOKEN!, { etransfer_email: address }, 'PATCH')).status).toBe(200);
    // Nothing edited yet: nothing to save (an empty update would still be recorded as a change).
    expect(await row.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await row.locator('label', { hasText: 'Frame ancestors' }).locator('input').fill('https://shop.maple.example');
    await row.getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor('the new deposit address on the card', async () => (await row.locator('input[type=email]').inputValue()) === address);
    const saved = await gateway.call<{ etransfer_email: string | null; frame_ancestors: string[] }>(`/v1/admin/merchants/${merchant.merchant_id}`, stack.env.ADMIN_TOKEN!);
    expect(saved.body).toMatchObject({ etransfer_email: address, frame_ancestors: ['https://shop.maple.example'] });
  });

  it('pages the admin refund queue, each refund marked LIVE or TEST', async () => {
    const created = await platformAdmin();
    const older = await liveRefund();
    const newer = await liveRefund();
    const tested = await testRefund();
    const admin = await signIn(created.email, created.password);
    // A row a page: the older request is reached only through the pager.
    await smallPages(admin, '/api/admin/refunds', 1);
    await admin.reload();
    await admin.locator(`li[data-refund-id="${newer.id}"]`).waitFor();
    expect(await admin.locator('li[data-refund-id]').count()).toBe(1);
    await admin.getByRole('button', { name: 'Next page' }).click();
    const card = admin.locator(`li[data-refund-id="${older.id}"]`);
    await card.waitFor();
    expect(await card.locator('.badge-live').textContent()).toBe('Live');
    await expectAccessible(admin, 'admin-refund-queue-paged');
    await admin.selectOption('#status-filter', 'COMPLETED');
    expect(await admin.locator(`li[data-refund-id="${tested.id}"] .badge-test`).textContent()).toBe('Test');
  });

  it('shows no refund form on a payment whose refund is in progress, a note saying so instead', async () => {
    const refund = await liveRefund();
    const owner = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await owner.goto(`${dashboardUrl}/payments/${refund.payment_id}?mode=live`);
    await owner.locator('ul.refunds .badge[data-status="REQUESTED"]').waitFor();
    expect(await owner.getAttribute('.fields .badge >> nth=0', 'data-status')).toBe('CONFIRMED');
    // A second request would only be refused (409 'A refund is already open for this payment').
    expect(await owner.getByRole('button', { name: 'Request a full refund' }).count()).toBe(0);
    expect(await owner.locator('.refund-form').count()).toBe(0);
    expect(await text(owner, '.refund-in-progress')).toBe('A refund of this payment is in progress.');
    expect(await owner.getByRole('button', { name: 'Cancel refund' }).count()).toBe(1);
    await expectAccessible(owner, 'payment-refund-in-progress');
    await owner.selectOption('header select', 'fr');
    expect(await text(owner, '.refund-in-progress')).toBe('Un remboursement de ce paiement est en cours.');
    await owner.close();
  });

  it('given the session read failing otherwise than with a 401 (a proxy’s HTML 503 page), then shows the error and a retry, not the sign-in form; the retry loads the app', async () => {
    const page = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await page.waitForSelector('#home-title');
    const unavailable = (route: Route) => route.fulfill({ status: 503, contentType: 'text/html', body: '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>' });
    await page.route('**/api/auth/session', unavailable);
    await page.reload();
    const retry = page.getByRole('button', { name: 'Try again', exact: true });
    await retry.or(page.locator('input[name=email]')).waitFor();
    expect(await page.locator('input[name=email]').count()).toBe(0);
    // No words from the server: the status it answered, in the reader's words.
    expect(await text(page, 'main [role=alert]')).toBe('The server answered with status 503');
    await expectAccessible(page, 'session-unknown');

    await page.unroute('**/api/auth/session', unavailable);
    await retry.click();
    await page.waitForSelector('#home-title');
    expect(await page.locator('header nav').count()).toBe(1);
    await page.close();
  });

  it('given a malformed payment path, then shows the not-found page, the header and its navigation kept', async () => {
    const page = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await page.waitForSelector('#home-title');
    // The server answers such a path 400 itself: the app meets it through its own navigation (a link, the back button).
    await page.evaluate(`history.pushState(null, '', '/payments/%E0%A4%A'); dispatchEvent(new PopStateEvent('popstate'))`);
    await page.locator('#not-found-title').waitFor({ timeout: 10_000 });
    expect(await text(page, '#not-found-title')).toBe('Page not found');
    expect(await page.locator('header nav a').count()).toBeGreaterThan(0);
    await page.click('header nav >> text=Payments');
    await page.waitForSelector('#payments-title');
    await page.close();
  });

  it('given a page that throws while it renders (an answer of a shape it does not expect), then shows an error in its place, the header and its navigation kept', async () => {
    const page = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await page.waitForSelector('#home-title');
    const broken = {
      id: 'txn_broken000001',
      etransfer_ref: null,
      amount: 2500,
      sender_name: 'Jo',
      sender_email: null,
      comment: null,
      status: 'CONFIRMED',
      verification_method: 'AUTO_EMAIL',
      created_at: '2026-01-02T03:04:05.000Z',
      session_id: null,
      livemode: false,
      review_reasons: [],
      verified_by: null,
    } satisfies PaymentView;
    // The payment without its events and refunds: the page's render fails on them.
    await page.route((url) => url.pathname === `/api/payments/${broken.id}`, (route) => route.fulfill({ json: { payment: broken, session: null } }));
    await page.goto(`${dashboardUrl}/payments/${broken.id}`);
    await page.locator('main [role=alert]').waitFor({ timeout: 10_000 });
    expect(await text(page, 'main [role=alert]')).toBe('This page could not be shown. Go to another page, or reload this one.');
    expect(await page.locator('header nav a').count()).toBeGreaterThan(0);
    await page.click('header nav >> text=Payments');
    await page.waitForSelector('#payments-title');
    expect(await page.locator('main [role=alert]').count()).toBe(0);
    await page.close();
  });

  it('sends one POST for a double-clicked Create merchant', async () => {
    const created = await platformAdmin();
    const admin = await signIn(created.email, created.password);
    await admin.click('header nav >> text=Merchants');
    await admin.waitForSelector('#merchants-title');
    const posted: string[] = [];
    admin.on('request', (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/admin/merchants' && posted.push(request.headers()['idempotency-key']));
    const form = admin.locator('form.create-merchant');
    await form.getByLabel('Name', { exact: true }).fill('Double Click Shop');
    await form.getByLabel('E-mail', { exact: true }).fill(`${randomUUID()}@example.com`);
    await form.getByRole('button', { name: 'Create merchant' }).dblclick();
    await admin.locator('dialog [data-field="merchant_id"]').waitFor();
    expect(posted).toHaveLength(1);
    await admin.close();
  });

  /** A live payment recorded as the ingest records a bank notice, and a refund the owner requested. */
  async function liveRefund(): Promise<RefundView> {
    const session = await gateway.createSession(merchant, {}, merchant.keys.live_secret);
    const payment = await (await stack.bus(15_000)).request('payments.record-transfer.v1', genuineTransfer(merchant.merchant_id, session.memo));
    return ownerRefund(`/api/payments/${payment.id}/refund?mode=live`);
  }

  /** A refund of a simulated test payment, completed at once as test refunds are. */
  async function testRefund(): Promise<RefundView> {
    const session = await gateway.createSession(merchant);
    const simulated = await gateway.call<{ transaction: PaymentView }>('/v1/sandbox/simulate-payment', merchant.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' });
    return ownerRefund(`/api/payments/${simulated.body.transaction.id}/refund`);
  }

  async function ownerRefund(path: string): Promise<RefundView> {
    const owner = new DashboardBrowser(dashboardUrl);
    await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password);
    const refund = await owner.post<RefundView>(path, { reason: 'Order cancelled' });
    if (refund.status !== 201) throw new Error(`refund request answered ${refund.status}`);
    return refund.body;
  }
});
