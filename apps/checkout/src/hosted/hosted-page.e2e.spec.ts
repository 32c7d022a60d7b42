import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, REPO_ROOT, startTogether, type TestBrowser, waitFor } from '@pp/testing';
import type { Page, Request, Response } from 'playwright-core';
import { CheckoutTestStack, type Merchant, MerchantSite } from '../testing/checkout-test-stack';

const ARTIFACTS = join(REPO_ROOT, 'artifacts', 'checkout');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const HOSTILE_NAME = `Bob's <img src=x onerror="window.__xss=1"><script>window.__xss=2</script> & Co`;

/** Every request the page makes, to prove none leaves this machine. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request: Request) => urls.push(request.url()));
  return urls;
}

const isLocal = (url: string) => ['localhost', '127.0.0.1'].includes(new URL(url).hostname);
const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

describe('hosted checkout page in Chromium', () => {
  let env: CheckoutTestStack;
  let shop: MerchantSite;
  let browser: TestBrowser;
  let merchant: Merchant;
  let urls: { success_url: string; cancel_url: string };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [env, shop, browser] = await startTogether([
      CheckoutTestStack.start('checkout-hosted'),
      MerchantSite.start('localhost', { '/success': () => '<h1>thanks</h1>', '/cancel': () => '<h1>cancelled</h1>' }),
      launchBrowser({ viewport: { width: 1280, height: 900 } }),
    ]);
    merchant = await env.createMerchant('Maple Goods');
    urls = { success_url: `${shop.origin}/success`, cancel_url: `${shop.origin}/cancel` };
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await env?.stop();
  });

  const openPage = async (path: string, options: { locale?: string } = {}) => {
    const page = await browser.context.newPage();
    if (options.locale) await page.setExtraHTTPHeaders({ 'accept-language': options.locale });
    const requests = recordRequests(page);
    const response = await page.goto(`${env.checkoutUrl}${path}`);
    await page.waitForLoadState('networkidle');
    return { page, requests, response: response! };
  };

  it('shows amount, memo, recipient, steps and bank links; copies the memo; loads nothing from outside localhost', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.checkoutUrl });
    const { page, requests, response } = await openPage(`/sessions/${session.id}`);

    expect(response.status()).toBe(200);
    expect(await text(page, '#amount')).toBe('$25.00');
    expect(await text(page, '#memo')).toBe(session.memo);
    expect(await text(page, '#recipient')).toBe(merchant.etransfer_email);
    expect(await text(page, '.merchant-name')).toContain('Maple Goods');
    expect(await text(page, '.steps')).toContain(session.memo);
    expect(await page.isVisible('.test-banner')).toBe(true);
    // Test sessions are confirmed only by the merchant (simulate-payment, the dashboard): the payer's page offers no simulator.
    expect(await page.$$('[data-simulate], .simulate, #simulate-status, [data-simulate-url]')).toHaveLength(0);
    expect(await page.getAttribute('#cancel', 'href')).toBe(urls.cancel_url);
    expect(await text(page, '#countdown')).toMatch(/^(29|30):\d\d$/);
    const banks = await page.$$eval('a.bank', (links) => links.map((a) => ({ name: a.textContent ?? '', href: a.getAttribute('href') ?? '', rel: a.getAttribute('rel') })));
    for (const name of ['RBC', 'TD', 'Scotiabank', 'BMO', 'CIBC', 'National Bank', 'Desjardins', 'Tangerine', 'Simplii']) {
      expect(banks).toContainEqual({ name: expect.stringContaining(name), href: expect.stringMatching(/^https:\/\//), rel: 'noopener noreferrer' });
    }
    // Neither the reference nor the metadata reaches the payer.
    const html = await page.content();
    expect(html).not.toContain('order-');
    expect(html).not.toContain('never shown');

    await page.click('#copy-memo');
    await waitFor('copied status', async () => (await text(page, '#copy-status')).length > 0);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(session.memo);

    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => !isLocal(url))).toEqual([]);

    const csp = response.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    // Served from a plain-http CHECKOUT_URL_BASE (dev, tests): no HSTS, which would pin localhost to https.
    expect(response.headers()['strict-transport-security']).toBeUndefined();
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    await page.close();
  });

  it('keeps waiting after a failed payment simulated by the merchant, then redirects to success_url within 3 s of a confirmed one', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls);
    const { page } = await openPage(`/sessions/${session.id}`);
    const polls: Array<{ status: number; body: string }> = [];
    const recordPoll = async (response: Response) => {
      if (!response.url().endsWith(`/sessions/${session.id}/status`)) return;
      // A body still being read when the page leaves for success_url is gone: such a poll is not recorded.
      const body = await response.text().catch(() => undefined);
      if (body !== undefined) polls.push({ status: response.status(), body });
    };
    page.on('response', recordPoll);
    const failed = await env.simulatePayment(merchant.keys.test_secret, session.id, 'failed');
    expect(failed).toMatchObject({ transaction: { status: 'FAILED' }, session: { status: 'PENDING' } });
    // Two polls after the failed payment: the page has seen the session still PENDING, and stays waiting on it.
    const seen = polls.length;
    await waitFor('two polls after the failed payment', () => polls.length >= seen + 2);
    expect(polls.slice(seen)).toContainEqual({ status: 200, body: JSON.stringify({ status: 'PENDING', expires_at: session.expires_at }) });
    expect(page.url()).toBe(`${env.checkoutUrl}/sessions/${session.id}`);
    expect(await text(page, '#live-status')).toBe('Waiting for your transfer…');
    page.off('response', recordPoll);

    await env.simulatePayment(merchant.keys.test_secret, session.id, 'confirmed');
    await page.waitForURL(urls.success_url, { timeout: 3000 });
    expect(await text(page, 'h1')).toBe('thanks');

    // Afterwards the link shows a clear "payment received" page.
    const again = await openPage(`/sessions/${session.id}`);
    expect(again.response.status()).toBe(200);
    expect(await text(again.page, 'h1')).toBe('Payment received');
    await Promise.all([page.close(), again.page.close()]);
  });

  it('renders the amount in French from Accept-Language and from ?lang=fr', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls);
    const byHeader = await openPage(`/sessions/${session.id}`, { locale: 'fr-CA,fr;q=0.9' });
    expect(await text(byHeader.page, '#amount')).toBe('25,00 $');
    expect(await byHeader.page.getAttribute('html', 'lang')).toBe('fr');
    const bySwitch = await openPage(`/sessions/${session.id}?lang=fr`, { locale: 'en-CA' });
    expect(await text(bySwitch.page, '#amount')).toBe('25,00 $');
    expect(await text(bySwitch.page, 'h1')).toBe('Payer par Virement Interac');
    await Promise.all([byHeader.page.close(), bySwitch.page.close()]);
  });

  it('shows a merchant name with HTML and script as text, and runs none of it', async () => {
    const hostile = await env.createMerchant(HOSTILE_NAME);
    const session = await env.createSession(hostile.keys.test_secret, urls);
    const dialogs: string[] = [];
    const { page } = await openPage(`/sessions/${session.id}`);
    page.on('dialog', (dialog) => dialogs.push(dialog.message()));
    expect(await text(page, '.merchant-name')).toBe(`Payment to ${HOSTILE_NAME}`);
    expect(await page.title()).toContain(HOSTILE_NAME);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.$$('img')).toHaveLength(0);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('passes axe-core without serious or critical violations; screenshots at desktop and phone widths', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls);
    const { page } = await openPage(`/sessions/${session.id}`);
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: join(ARTIFACTS, `hosted-page-${name}.png`), fullPage: true });
    }
    // Evaluated through the DevTools protocol, which the page's CSP does not govern.
    await page.evaluate(AXE_SOURCE);
    const violations = (await page.evaluate(
      'axe.run().then((result) => result.violations.map(({ id, impact, help }) => ({ id, impact, help })))',
    )) as Array<{ id: string; impact: string; help: string }>;
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.close();
  });

  it('gives unknown sessions a clear 404 page, never a stack trace', async () => {
    for (const id of ['nosuchsession0000000000', 'NOT-A-CUID', '..%2f..%2fetc']) {
      const { page, response } = await openPage(`/sessions/${id}`);
      expect(response.status()).toBe(404);
      expect(await text(page, 'h1')).toBe('Checkout not found');
      expect(await page.content()).not.toMatch(/at .*\.js:\d+|Error:/);
      await page.close();
    }
  });

  it('has no simulator route: POST /sessions/:id/simulate is 404 for test and live sessions, and the session stays PENDING', async () => {
    const test = await env.createSession(merchant.keys.test_secret, urls);
    const live = await env.createSession(merchant.keys.live_secret, { success_url: 'https://shop.example.com/success', cancel_url: 'https://shop.example.com/cancel' });
    const { page } = await openPage(`/sessions/${live.id}`);
    expect(await page.$('[data-simulate]')).toBeNull();
    expect(await page.$('.test-banner')).toBeNull();
    for (const [session, key] of [
      [test, merchant.keys.test_secret],
      [live, merchant.keys.live_secret],
    ] as const) {
      const refused = await fetch(`${env.checkoutUrl}/sessions/${session.id}/simulate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'confirmed' }),
      });
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual({ error: 'Not found' });
      expect((await env.api<{ status: string }>(`/v1/checkout/sessions/${session.id}`, { token: key })).body.status).toBe('PENDING');
    }
    await page.close();
  });

  it('polls its status once a second, backs off exponentially on any failure (Retry-After, else twice as long), returns to once a second after a success, and stops on the checkout’s own 404, not a proxy’s, saying the session is not found', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls);
    const page = await browser.context.newPage();
    // The answers to the page's polls in turn: 'abort' a network error; null the real server's.
    const failure = (status: number, headers: Record<string, string> = {}) => ({ status, headers, contentType: 'application/json', body: JSON.stringify({ error: 'refused' }) });
    // A 404 without X-Request-Id is something in front of the checkout (a proxy mid-deploy); the checkout's own names the request.
    const answers = [failure(503), 'abort' as const, null, failure(429, { 'retry-after': '5' }), null, failure(404), failure(404, { 'x-request-id': 'req_gone' })];
    const polledAt: number[] = [];
    await page.route(`**/sessions/${session.id}/status`, async (route) => {
      polledAt.push(Date.now());
      const answer = answers.shift();
      if (answer === 'abort') await route.abort('connectionreset');
      else await (answer ? route.fulfill(answer) : route.continue());
    });
    await page.goto(`${env.checkoutUrl}/sessions/${session.id}`);
    await waitFor('seven polls', () => polledAt.length >= 7, { timeoutMs: 30_000 });

    const gaps = polledAt.slice(1, 7).map((at, i) => at - polledAt[i]);
    // doubled, doubled again, after a success, Retry-After (over doubling's 2 s), after a success, doubled after the proxy's 404
    const expected = [2000, 4000, 1000, 5000, 1000, 2000];
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(expected[i] - 100);
      expect(gap).toBeLessThan(expected[i] + 900);
    });
    // After the checkout's 404 a backoff would poll again within 4 s: more than that without a poll means the page has stopped.
    await page.waitForTimeout(5000);
    expect(polledAt).toHaveLength(7);
    // Not left saying it waits for a transfer it can no longer follow.
    expect(await text(page, '#live-status')).toBe('This payment link is not valid. Please go back to the merchant and start again.');
    await page.close();
  }, 60_000);

  // Last two: each short time to live stays for the rest of this file.
  it('when the session expires, tells the payer not to pay again, with the cancel link, for ten seconds before going to cancel_url; shows an expired page afterwards', async () => {
    await env.restartWith('sessions', { SESSION_TTL_SECONDS: '3' });
    const session = await env.createSession(merchant.keys.test_secret, urls);
    const pageUrl = `${env.checkoutUrl}/sessions/${session.id}`;
    const { page } = await openPage(`/sessions/${session.id}`);
    await waitFor('the expired notice, or the page left', async () => page.url() !== pageUrl || (await page.locator('#live-status.expired').count()) > 0, {
      timeoutMs: 15_000,
    });
    expect(page.url()).toBe(pageUrl);
    const notice = await text(page, '#live-status');
    expect(notice).toContain('If you already sent the e-Transfer, do not send it again');
    expect(notice).toContain('contact the merchant');
    // The hosted page used to leave for cancel_url at once; it stays for the payer to read, then goes.
    const noticed = Date.now();
    await page.waitForTimeout(3000);
    expect(page.url()).toBe(pageUrl);
    expect(await page.isVisible('#cancel')).toBe(true);
    expect(await page.getAttribute('#cancel', 'href')).toBe(urls.cancel_url);
    await page.waitForURL(urls.cancel_url, { timeout: 15_000 });
    expect(Date.now() - noticed).toBeGreaterThanOrEqual(8000);
    expect(await text(page, 'h1')).toBe('cancelled');

    const again = await openPage(`/sessions/${session.id}`);
    expect(again.response.status()).toBe(410);
    expect(await text(again.page, 'h1')).toBe('This payment request has expired');
    expect(await text(again.page, 'main p')).toContain('If you already sent the e-Transfer, do not send it again');
    expect(await again.page.getAttribute('a.button', 'href')).toBe(urls.cancel_url);
    const inFrench = await openPage(`/sessions/${session.id}?lang=fr`);
    expect(await text(inFrench.page, 'main p')).toContain('ne l’envoyez pas de nouveau');
    await Promise.all([page.close(), again.page.close(), inFrench.page.close()]);
  });

  it('follows a deadline moved later while it is open (the dashboard’s preview checkout reopened): counts down past the first one, then expires at the new one', async () => {
    // Long enough to reopen the preview well before the first deadline, short enough to wait both out.
    await env.restartWith('sessions', { SESSION_TTL_SECONDS: '16' });
    const previewMerchant = await env.createMerchant('Preview Goods');
    const bus = await env.stack.bus();
    // What the dashboard's Developers page asks when the merchant opens the preview checkout.
    const openPreview = () => bus.request('sessions.preview.v1', { merchant_id: previewMerchant.merchant_id, return_url: `${shop.origin}/cancel` });
    const first = await openPreview();
    expect(first.outcome).toBe('created');
    const { page } = await openPage(`/sessions/${first.session.id}`);
    await page.waitForTimeout(Math.max(0, Date.parse(first.session.expires_at) - 8000 - Date.now()));
    const second = await openPreview();
    expect(second).toMatchObject({ outcome: 'extended', session: { id: first.session.id } });
    const moved = Date.parse(second.session.expires_at);

    // Past the first deadline, where the page used to stop at 00:00, and before the new one.
    await page.waitForTimeout(Math.max(0, Date.parse(first.session.expires_at) + 1000 - Date.now()));
    const secondsLeft = async () => {
      const [minutes, seconds] = (await text(page, '#countdown')).split(':').map(Number);
      return { shown: minutes * 60 + seconds, expected: (moved - Date.now()) / 1000 };
    };
    const past = await secondsLeft();
    expect(past.expected).toBeGreaterThan(2);
    // Counting down to the new deadline (a tick or two behind on a loaded machine), not stopped at 00:00.
    expect(past.shown).toBeGreaterThanOrEqual(Math.floor(past.expected) - 2);
    expect(past.shown).toBeLessThanOrEqual(Math.ceil(past.expected) + 1);
    await waitFor('the countdown to go on', async () => (await secondsLeft()).shown < past.shown, { timeoutMs: 5000 });
    expect(await text(page, '#live-status')).toBe('Waiting for your transfer…');

    await waitFor('the expired notice', async () => (await page.locator('#live-status.expired').count()) > 0, { timeoutMs: 15_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(moved);
    await page.close();
  });
});
