import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PaymentView, WebhookEndpointWithSecretView } from '@pp/contracts';
import { buildNotice, clearOfUtcMidnight, freePort, launchBrowser, signEmail, startTogether, type TestBrowser, testDkimKey, TestStack, waitFor, WebhookReceiver, writeDnsOverrides } from '@pp/testing';
import type { Page, Request } from 'playwright-core';
import { ARTIFACTS, expectAccessible, holdRequests, signInPage, text } from './testing/dashboard-pages';
import { GatewayApi, type ProvisionedMerchant } from './testing/dashboard-client';

/*
 * Home, the preview checkout, webhook endpoints disabled and enabled, the
 * session detail, the payment timeline with its deliveries and the ingest
 * quarantine, in Chromium (playwright-core with Debian's chromium), axe-core
 * on each page, screenshots in artifacts/dashboard/.
 */

describe('dashboard pages in Chromium', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let receiver: WebhookReceiver;
  let merchant: ProvisionedMerchant;
  let browser: TestBrowser;
  let dashboardUrl: string;
  let owner: Page;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const checkoutPort = await freePort();
    [stack, browser, receiver] = await startTogether([
      TestStack.start({
        services: ['gateway', 'sessions', 'ledger', 'webhooks', 'ingest', 'checkout', 'dashboard'],
        label: 'dashboard-pages-e2e',
        env: {
          DASHBOARD_SECURE_COOKIE: 'false',
          CHECKOUT_PORT: String(checkoutPort),
          CHECKOUT_URL_BASE: `http://127.0.0.1:${checkoutPort}`,
          INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()),
        },
      }),
      launchBrowser({ viewport: { width: 1280, height: 860 }, locale: 'en-CA' }),
      WebhookReceiver.start(),
    ]);
    dashboardUrl = stack.url('dashboard');
    gateway = new GatewayApi(stack);
    merchant = await gateway.createMerchant('Maple Goods');
    owner = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.stop();
  });

  /** A new page signed in as this user alone (the previous user's cookie is cleared). */
  async function signIn(email: string, password: string): Promise<Page> {
    await browser.context.clearCookies();
    return signInPage(browser.context, dashboardUrl, email, password);
  }

  async function simulatedPayment(): Promise<PaymentView> {
    const session = await gateway.createSession(merchant);
    const simulated = await gateway.call<{ transaction: PaymentView }>('/v1/sandbox/simulate-payment', merchant.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' });
    return simulated.body.transaction;
  }

  const nav = (page: Page, label: string) => page.click(`header nav >> text=${label}`);

  it('lands the owner on Home, which shows today’s payments, the volume chart and the latest payments after a simulated payment', async () => {
    await owner.waitForSelector('#home-title');
    expect(new URL(owner.url()).pathname).toBe('/home');
    await clearOfUtcMidnight();
    const payment = await simulatedPayment();
    await owner.reload();
    const confirmed = owner.locator('[data-period="today"] tr[data-status="CONFIRMED"]');
    await confirmed.waitFor();
    expect(await confirmed.locator('.count').textContent()).toBe('1');
    expect(await text(owner, '[data-period="today"] tr[data-status="CONFIRMED"] .volume')).toBe('$25.00');
    expect(await owner.getAttribute('.chart svg', 'role')).toBe('img');
    expect(await owner.locator('.chart .bar').count()).toBe(14);
    expect(await owner.locator('.chart-table tbody tr').count()).toBe(14);
    expect(await owner.locator(`a[href="/payments/${payment.id}"]`).count()).toBe(1);
    // "Today" counts from 00:00 UTC, and says so.
    expect(await text(owner, '#today-title')).toBe('Today (UTC)');
    await expectAccessible(owner, 'home');

    await owner.selectOption('header select', 'fr');
    await owner.waitForSelector('#home-title >> text=Accueil');
    expect(await text(owner, '#today-title')).toBe('Aujourd’hui (UTC)');
    expect(await text(owner, '[data-period="today"] tr[data-status="CONFIRMED"] .badge')).toBe('Confirmé');
    expect(await text(owner, 'header nav')).not.toMatch(/Home|Payments/);
    await expectAccessible(owner, 'home-fr');
    await owner.selectOption('header select', 'en');
    await owner.waitForSelector('#home-title >> text=Home');
  });

  it('names each page in the window title, in the reader’s language, and moves focus to the new page’s heading on navigation; a path of no page of the role is not found', async () => {
    await owner.goto(`${dashboardUrl}/home`);
    await owner.waitForSelector('#home-title');
    expect(await owner.title()).toBe('Home · Dashboard');
    await nav(owner, 'Payments');
    await owner.waitForSelector('#payments-title');
    expect(await owner.title()).toBe('Payments · Dashboard');
    expect(await owner.evaluate('[document.activeElement.id, document.activeElement.tabIndex]')).toEqual(['payments-title', -1]);
    // A change of the query only (the mode) keeps focus on the control that made it.
    await owner.locator('header').getByRole('button', { name: 'Live mode' }).click();
    await owner.waitForURL(/mode=live/);
    expect(await owner.evaluate('document.activeElement.getAttribute("aria-pressed")')).toBe('true');
    await owner.locator('header').getByRole('button', { name: 'Live mode' }).click();
    await owner.selectOption('header select', 'fr');
    await owner.waitForSelector('#payments-title >> text=Paiements');
    expect(await owner.title()).toBe('Paiements · Tableau de bord');
    await owner.selectOption('header select', 'en');

    // The refund queue is a platform admin's: a merchant user who types its path gets no other page in its place.
    await owner.goto(`${dashboardUrl}/admin/refunds`);
    await owner.waitForSelector('#not-found-title');
    expect(await owner.title()).toBe('Page not found · Dashboard');
    expect(await owner.locator('#payments-title').count()).toBe(0);
  });

  it('opens the preview checkout twice on the same session with its expiry pushed, and the Simulate panel defaults to it', async () => {
    await nav(owner, 'Developers');
    await owner.waitForSelector('#preview-title');
    /** Opens the preview; the hosted page's URL names the session. */
    const open = async (): Promise<string> => {
      await owner.getByRole('button', { name: 'Open preview checkout' }).click();
      await owner.waitForURL(/\/sessions\//);
      await owner.waitForSelector('#memo');
      expect(owner.url().startsWith(stack.env.CHECKOUT_URL_BASE)).toBe(true);
      return new URL(owner.url()).pathname.split('/').pop()!;
    };
    const expiresAt = async (sessionId: string) =>
      Date.parse(((await owner.evaluate(`fetch('/api/checkout-sessions/${sessionId}').then((answer) => answer.json())`)) as { session: { expires_at: string } }).session.expires_at);

    const first = await open();
    expect(await owner.getAttribute('#cancel', 'href')).toBe(`${dashboardUrl}/developers`);
    await owner.screenshot({ path: join(ARTIFACTS, 'preview-checkout.png'), fullPage: true });
    await owner.click('#cancel');
    await owner.waitForSelector('#preview-title');
    const firstDeadline = await expiresAt(first);

    expect(await open()).toBe(first);
    await owner.goBack();
    await owner.waitForSelector('#simulate-session');
    expect(await expiresAt(first)).toBeGreaterThan(firstDeadline);
    const stream = await (await stack.bus(10_000)).request('ledger.stream.read.v1', { stream_id: `checkout_session-${first}` });
    expect(stream.events.map((event) => event.type)).toEqual(['session.created', 'session.expiry_extended']);
    await waitFor('the preview session selected', async () => (await owner.inputValue('#simulate-session')) === first);
    await expectAccessible(owner, 'developers-preview-simulate');
  });

  it('given an endpoint made whose answer was lost (a 503), when the owner adds it again, then the retry sends the same Idempotency-Key and shows the one endpoint’s secret', async () => {
    const path = (url: URL) => url.pathname === '/api/developers/webhook-endpoints';
    const keys: string[] = [];
    let lost = false;
    // The server makes the endpoint; its answer is replaced by the 503 of a bus deadline that passed after the commit.
    await owner.route(path, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(route.request().headers()['idempotency-key']);
      if (lost) return route.continue();
      lost = true;
      await route.fetch();
      return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service unavailable' }) });
    });
    try {
      await owner.goto(`${dashboardUrl}/developers`);
      await owner.fill('input[type=url]', receiver.url('/lost-answer'));
      await owner.getByRole('button', { name: 'Add endpoint' }).click();
      await owner.locator('form [role=alert]', { hasText: 'Service unavailable' }).waitFor();
      await owner.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = (await owner.locator('dialog [data-secret]').textContent())!;
      await owner.locator('dialog').getByRole('button', { name: 'Done', exact: true }).click();

      expect(keys).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), keys[0]]);
      const listed = await gateway.call<Array<{ url: string }>>('/v1/webhook_endpoints', merchant.keys.test_secret);
      expect(listed.body.filter((endpoint) => endpoint.url === receiver.url('/lost-answer'))).toHaveLength(1);
      expect(secret).toMatch(/^whsec_/);

      await owner.fill('input[type=url]', receiver.url('/next-action'));
      await owner.getByRole('button', { name: 'Add endpoint' }).click();
      await owner.locator('dialog [data-secret]').waitFor();
      await owner.locator('dialog').getByRole('button', { name: 'Done', exact: true }).click();
      expect(keys).toHaveLength(3);
      expect(keys[2]).not.toBe(keys[0]);
    } finally {
      await owner.unroute(path);
    }
  });

  it('sends one POST for a double-clicked Add endpoint', async () => {
    await owner.goto(`${dashboardUrl}/developers`);
    const posted: string[] = [];
    const count = (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/developers/webhook-endpoints' && posted.push(request.headers()['idempotency-key']);
    owner.on('request', count);
    await owner.fill('input[type=url]', receiver.url('/double-click'));
    await owner.getByRole('button', { name: 'Add endpoint' }).dblclick();
    await owner.locator('dialog [data-secret]').waitFor();
    owner.off('request', count);
    await owner.locator('dialog').getByRole('button', { name: 'Done', exact: true }).click();
    expect(posted).toHaveLength(1);
    const listed = await gateway.call<Array<{ url: string }>>('/v1/webhook_endpoints', merchant.keys.test_secret);
    expect(listed.body.filter((endpoint) => endpoint.url === receiver.url('/double-click'))).toHaveLength(1);
  });

  it('disables an endpoint, which then gets no delivery, and enables it again; its recent deliveries show on the page', async () => {
    const control = await gateway.call<WebhookEndpointWithSecretView>('/v1/webhook_endpoints', merchant.keys.test_secret, { url: receiver.url('/control') });
    receiver.trust('/control', control.body.secret);
    await owner.goto(`${dashboardUrl}/developers`);
    await owner.fill('input[type=url]', receiver.url('/paused'));
    await owner.getByRole('button', { name: 'Add endpoint' }).click();
    receiver.trust('/paused', (await owner.locator('dialog [data-secret]').textContent())!);
    await owner.locator('dialog').getByRole('button', { name: 'Done', exact: true }).click();
    const card = owner.locator('li[data-endpoint-id]', { hasText: receiver.url('/paused') });
    await card.getByRole('button', { name: 'Disable' }).click();
    await card.locator('.badge[data-status="disabled"]', { hasText: 'Disabled' }).waitFor();
    expect(await card.locator('.disabled-note').textContent()).toContain('not resent');

    const skipped = await simulatedPayment();
    await waitFor('the control endpoint’s delivery', async () => receiver.received('/control').some((hook) => hook.rawBody.toString().includes(skipped.id)));
    expect(receiver.received('/paused')).toEqual([]);
    await card.getByRole('button', { name: 'Recent deliveries' }).click();
    await card.locator('text=No webhook deliveries.').waitFor();
    await expectAccessible(owner, 'developers-endpoint-disabled');

    await card.getByRole('button', { name: 'Enable' }).click();
    await card.locator('.badge[data-status="enabled"]', { hasText: 'Enabled' }).waitFor();
    const delivered = await simulatedPayment();
    await waitFor('the re-enabled endpoint’s delivery', async () => receiver.received('/paused').some((hook) => hook.rawBody.toString().includes(delivered.id)));
    await waitFor('the delivery on the page', async () => {
      await owner.reload();
      const reloaded = owner.locator('li[data-endpoint-id]', { hasText: receiver.url('/paused') });
      await reloaded.getByRole('button', { name: 'Recent deliveries' }).click();
      await reloaded.locator('.deliveries li').or(reloaded.getByText('No webhook deliveries.')).first().waitFor();
      return (await reloaded.locator('.deliveries li[data-delivery-status="SUCCESS"]', { hasText: 'payment.confirmed' }).count()) > 0;
    });
    expect(receiver.received('/paused').some((hook) => hook.rawBody.toString().includes(skipped.id))).toBe(false);
    await expectAccessible(owner, 'developers-endpoint-deliveries');
  });

  it('opens a session’s detail from the list, and from it the payment with its timeline of events and deliveries', async () => {
    const session = await gateway.createSession(merchant, { metadata: { note: '<b>bold</b>' } });
    await gateway.call('/v1/sandbox/simulate-payment', merchant.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' });
    await owner.goto(`${dashboardUrl}/checkout-sessions`);
    await owner.locator(`tr[data-session-id="${session.id}"] a`).click();
    await owner.waitForSelector('#session-title');
    expect(await text(owner, '.fields .memo')).toBe(session.memo);
    expect(await text(owner, '.fields .badge')).toBe('Completed');
    expect(await owner.locator('.fields b').count()).toBe(0);
    await owner.locator('tbody a[href^="/payments/txn_"]').waitFor();
    await expectAccessible(owner, 'session-detail');

    await owner.locator('tbody a[href^="/payments/txn_"]').click();
    await owner.waitForSelector('#payment-title');
    await waitFor('the payment.confirmed delivery on the timeline', async () => {
      if ((await owner.locator('[data-event-type="payment.confirmed"] .deliveries li[data-delivery-status="SUCCESS"]').count()) > 0) return true;
      await owner.reload();
      await owner.waitForSelector('#payment-title');
      return false;
    });
    await expectAccessible(owner, 'payment-timeline');
  });

  it('works from the keyboard alone: sign in, reach Developers, add an endpoint for one chosen event type', async () => {
    const page = await browser.context.newPage();
    await browser.context.clearCookies();
    await page.goto(dashboardUrl);
    /** Presses Tab until the focused element matches `selector` (every control must be reachable so). */
    const tabTo = async (selector: string) => {
      for (let presses = 0; presses < 60; presses++) {
        if (await page.locator(`${selector}:focus`).count()) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    await tabTo('input[name=email]');
    await page.keyboard.type(merchant.dashboard_user.email);
    await tabTo('input[name=password]');
    await page.keyboard.type(merchant.dashboard_user.password);
    await page.keyboard.press('Enter');
    await page.waitForSelector('header nav');
    await tabTo('header nav a[href="/developers"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#webhooks-title');

    const url = receiver.url(`/keyboard-${randomUUID().slice(0, 8)}`);
    await tabTo('form input[type=url]');
    await page.keyboard.type(url);
    await tabTo('input[name=enabled_events][value="payment.refunded"]');
    await page.keyboard.press('Space');
    await tabTo('form button[type=submit]');
    await page.keyboard.press('Enter');
    await page.locator('dialog [data-secret]').waitFor();
    await expectAccessible(page, 'developers-endpoint-by-keyboard');
    await page.keyboard.press('Escape');

    const listed = await gateway.call<Array<{ url: string; enabled_events: string[] }>>('/v1/webhook_endpoints', merchant.keys.test_secret);
    expect(listed.body.filter((endpoint) => endpoint.url === url).map((endpoint) => endpoint.enabled_events)).toEqual([['payment.refunded']]);
    await page.close();
  });

  it('lets a platform admin see a quarantined e-mail and release it once its address is registered', async () => {
    const created = await gateway.call<{ email: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email: `ops-${randomUUID().slice(0, 8)}@example.com` });
    const address = `till.${randomUUID().slice(0, 8)}@unknown.example`;
    const session = await gateway.createSession(merchant, {}, merchant.keys.live_secret);
    const raw = await signEmail(
      buildNotice({ to: address, sender: 'Jo <img src=x onerror="window.__xss=1">', message: session.memo, amount: '$25.00', messageId: `<q${randomUUID()}@payments.interac.ca>`, reference: `C1A${randomUUID().slice(0, 8)}` }),
    );
    const submitted = await fetch(`${stack.url('gateway')}/v1/internal/ingest-email`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.INGEST_TOKEN}`, 'content-type': 'message/rfc822' },
      body: raw,
    });
    const { id } = (await submitted.json()) as { id: string };

    const admin = await signIn(created.body.email, created.body.password);
    await nav(admin, 'Ingest quarantine');
    const row = admin.locator(`tr[data-email-id="${id}"]`);
    await waitFor('the quarantined e-mail on the page', async () => {
      if ((await row.count()) > 0) return true;
      await admin.reload();
      await admin.waitForSelector('#quarantine-title');
      return false;
    });
    expect(await row.locator('.recipients').textContent()).toBe(address);
    expect(await row.locator('img').count()).toBe(0);
    await expectAccessible(admin, 'admin-quarantine');

    // Release is asked first, naming the e-mail and its amount.
    const asked: string[] = [];
    admin.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await row.getByRole('button', { name: 'Release' }).click();
    expect(await text(admin, `tr[data-email-id="${id}"] [role=alert]`)).toMatch(/register it first/);
    expect(asked).toEqual([`Release this e-mail? Its payment is recorded for the merchant whose deposit address it was sent to: ${id} · $25.00`]);
    expect((await gateway.call(`/v1/admin/merchants/${merchant.merchant_id}`, stack.env.ADMIN_TOKEN!, { etransfer_email: address }, 'PATCH')).status).toBe(200);
    await row.getByRole('button', { name: 'Release' }).click();
    await row.waitFor({ state: 'detached' });
    await admin.selectOption('#status-filter', 'released');
    await admin.locator(`tr[data-email-id="${id}"]`).waitFor();
    expect(await admin.evaluate('window.__xss')).toBeUndefined();

    // A notice for the wrong amount to the now registered address waits in the review queue with its evidence.
    const reviewed = await gateway.createSession(merchant, {}, merchant.keys.live_secret);
    const wrongAmount = await signEmail(
      buildNotice({ to: address, sender: 'Jo <img src=x onerror="window.__xss=4">', message: reviewed.memo, amount: '$31.00', messageId: `<r${randomUUID()}@payments.interac.ca>`, reference: `C1R${randomUUID().slice(0, 8)}` }),
    );
    const posted = await fetch(`${stack.url('gateway')}/v1/internal/ingest-email`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.INGEST_TOKEN}`, 'content-type': 'message/rfc822' },
      body: wrongAmount,
    });
    const { id: reviewedEmail } = (await posted.json()) as { id: string };
    await nav(admin, 'Review queue');
    const reviewRow = admin.locator('tr[data-payment-id]', { hasText: reviewedEmail });
    await waitFor('the payment under review on the page', async () => {
      if ((await reviewRow.count()) > 0) return true;
      await admin.reload();
      await admin.waitForSelector('#review-title');
      return false;
    });
    await reviewRow.getByRole('button', { name: 'Show the e-mail evidence' }).click();
    const evidence = reviewRow.locator('dl.evidence');
    await evidence.waitFor();
    const shown = (await evidence.textContent()) ?? '';
    expect(shown).toContain('Signed by (DKIM): payments.interac.ca');
    expect(shown).toContain(address);
    expect(shown).toContain(reviewed.memo);
    expect(await evidence.locator('img').count()).toBe(0);
    await expectAccessible(admin, 'admin-review-evidence');
    expect(await admin.evaluate('window.__xss')).toBeUndefined();
  });

  it('offers a developer in live mode only the keys the role may issue (no secret key, no refunds scope), and in test mode no restricted key (live only)', async () => {
    const bus = await stack.bus();
    const added = await bus.request('identity.team.add.v1', { merchant_id: merchant.merchant_id, email: `dev-${randomUUID().slice(0, 8)}@example.com`, role: 'developer' });
    const developer = await signIn(added.email, added.password);
    const keyTypes = () => developer.locator('#key-type option').evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));

    await developer.goto(`${dashboardUrl}/developers?mode=live`);
    await developer.waitForSelector('#key-type');
    expect(await keyTypes()).toEqual(['restricted', 'publishable']);
    await developer.selectOption('#key-type', 'restricted');
    const scopes = (await developer.locator('.create-key fieldset label').allTextContents()).map((text) => text.trim());
    expect(scopes).toContain('payments.read');
    expect(scopes).not.toContain('refunds.write');

    await developer.goto(`${dashboardUrl}/developers?mode=test`);
    await developer.waitForSelector('#key-type');
    expect(await keyTypes()).toEqual(['secret', 'publishable']);
  });

  it('shows none of the test-mode payments under the live-mode banner while the live list is on its way', async () => {
    const payment = await simulatedPayment();
    const page = await signIn(merchant.dashboard_user.email, merchant.dashboard_user.password);
    await page.goto(`${dashboardUrl}/payments`);
    await page.locator(`a[href="/payments/${payment.id}"]`).waitFor();
    const release = await holdRequests(page, (url) => url.pathname === '/api/payments' && url.searchParams.get('mode') === 'live');
    // A toggle named for what it turns on, in both modes; its state is aria-pressed.
    const toggle = (name: string, pressed: boolean) => page.locator('header').getByRole('button', { name, exact: true, pressed });
    expect(await toggle('Live mode', false).count()).toBe(1);
    await toggle('Live mode', false).click();
    await toggle('Live mode', true).waitFor();
    expect(await page.locator('main tbody tr').count()).toBe(0);
    expect(await text(page, 'main [aria-live=polite]')).toBe('Loading…');
    await release();
    await page.locator('main [aria-live=polite]').waitFor({ state: 'detached' });
    expect(await page.locator(`a[href^="/payments/${payment.id}"]`).count()).toBe(0);
    await page.selectOption('header select', 'fr');
    await toggle('Mode réel', true).waitFor();
    await toggle('Mode réel', true).click();
    await toggle('Mode réel', false).waitFor();
  });
});
