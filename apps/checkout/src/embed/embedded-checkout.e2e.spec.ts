import { randomBytes } from 'node:crypto';
import { launchBrowser, type TestBrowser, waitFor } from '@pp/testing';
import type { Page } from 'playwright-core';
import { CheckoutTestStack, type Merchant, MerchantSite } from '../testing/checkout-test-stack';

/** The merchant's page: loads the client script from SDK_URL and records what the callbacks and the window receive. */
const shopPage = (sdkUrl: string) => () => `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<div id="checkout"></div>
<script src="${sdkUrl}/v1/checkout.js"></script>
<script>
  window.__received = []; window.__completed = []; window.__errors = [];
  window.addEventListener('message', function (e) { window.__received.push({ origin: e.origin, type: e.data && e.data.type }); });
  var q = new URLSearchParams(location.search);
  PaymentService(q.get('pk')).embedCheckout('#checkout', {
    clientSecret: q.get('cs'),
    onComplete: function (r) { window.__completed.push(r); },
    onError: function (e) { window.__errors.push(e); },
  });
  if (q.get('foreign')) { var f = document.createElement('iframe'); f.src = q.get('foreign'); document.body.appendChild(f); }
</script></body></html>`;

/** A merchant page that frames a checkout URL itself (no client script) and records what the frame tells it. */
const framingPage = () => `<!doctype html><html><body><script>
  window.__messages = [];
  window.addEventListener('message', function (e) { window.__messages.push(e.data); });
  var f = document.createElement('iframe'); f.src = new URLSearchParams(location.search).get('src'); document.body.appendChild(f);
</script></body></html>`;

/** A page on a third origin that impersonates the checkout frame. */
const spoofPage = () => `<!doctype html><html><body><script>
  parent.postMessage({ type: 'pp:complete', status: 'COMPLETED' }, '*');
  parent.postMessage({ type: 'pp:error', message: 'spoofed' }, '*');
</script></body></html>`;

interface ShopState {
  received: Array<{ origin: string; type: string }>;
  completed: Array<{ status: string; session_id?: string }>;
  errors: Array<{ message: string }>;
}

describe('embedded checkout in Chromium', () => {
  let env: CheckoutTestStack;
  let shop: MerchantSite;
  let foreign: MerchantSite;
  let browser: TestBrowser;
  let merchant: Merchant;
  const urls = () => ({ success_url: `${shop.origin}/success`, cancel_url: `${shop.origin}/cancel` });

  beforeAll(async () => {
    env = await CheckoutTestStack.start('checkout-embed');
    [shop, foreign, browser] = await Promise.all([
      MerchantSite.start('127.0.0.1', { '/shop': shopPage(env.checkoutUrl), '/framing': framingPage }),
      MerchantSite.start('localhost', { '/spoof': spoofPage }),
      launchBrowser(),
    ]);
    merchant = await env.createMerchant('Embed Shop');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([shop?.stop(), foreign?.stop()]);
    await env?.stop();
  });

  const state = (page: Page) =>
    page.evaluate('({ received: window.__received, completed: window.__completed, errors: window.__errors })') as Promise<ShopState>;

  async function openShop(query: Record<string, string>) {
    const page = await browser.context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${shop.origin}/shop?${new URLSearchParams(query).toString()}`);
    return { page, requests };
  }

  const firstError = async (page: Page) => {
    await waitFor('onError', async () => (await state(page)).errors.length > 0);
    return (await state(page)).errors;
  };

  it('mounts a sandboxed frame that calls onComplete with COMPLETED once the payment completes', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls());
    const { page, requests } = await openShop({ pk: merchant.keys.test_publishable, cs: session.client_secret });

    const iframe = await page.waitForSelector('#checkout iframe');
    expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms allow-popups');
    const frame = page.frameLocator('#checkout iframe');
    await frame.locator('#memo').waitFor();
    expect(await frame.locator('#memo').textContent()).toBe(session.memo);
    expect(((await frame.locator('#amount').textContent()) ?? '').trim()).toBe('$25.00');
    // A test session says so inside the frame too: no real money moves, the merchant simulates the payment.
    expect(await frame.locator('.test-banner').textContent()).toContain('no real money moves');
    // The secret never travels in a URL to checkout (the test shop page itself takes it from its query string).
    expect(requests.filter((url) => url.startsWith(env.checkoutUrl) && url.includes(session.client_secret))).toEqual([]);

    await env.simulatePayment(merchant.keys.test_secret, session.id, 'confirmed');
    await waitFor('onComplete', async () => (await state(page)).completed.length > 0);
    expect(await state(page)).toMatchObject({ completed: [{ status: 'COMPLETED', session_id: session.id }], errors: [] });
    expect(requests.filter((url) => !['localhost', '127.0.0.1'].includes(new URL(url).hostname))).toEqual([]);
    await page.close();
  });

  it('once paid, says in the frame that the payment was received, without promising to take the payer back, and stops its countdown', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls());
    const { page } = await openShop({ pk: merchant.keys.test_publishable, cs: session.client_secret });
    const frame = page.frameLocator('#checkout iframe');
    await frame.locator('#memo').waitFor();

    await env.simulatePayment(merchant.keys.test_secret, session.id, 'confirmed');
    await waitFor('onComplete', async () => (await state(page)).completed.length > 0);
    // The frame never leaves the merchant's page, which decides in onComplete what comes next.
    expect(await frame.locator('#live-status').textContent()).toBe('Payment received.');
    // It stays on show: a countdown still ticking would count down a payment already made.
    const countdownWhenPaid = await frame.locator('#countdown').textContent();
    await page.waitForTimeout(2500);
    expect(await frame.locator('#countdown').textContent()).toBe(countdownWhenPaid);
    await page.close();
  });

  it('sizes the frame to its content both ways: exactly, smaller when the content shrinks, larger when it grows, and down to the short page a reload shows once paid', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls());
    const { page } = await openShop({ pk: merchant.keys.test_publishable, cs: session.client_secret });
    await page.frameLocator('#checkout iframe').locator('#memo').waitFor();
    const inFrame = <T>(expression: string) => {
      const frame = page.frames().find((candidate) => candidate.url().includes(`/embed/sessions/${session.id}`));
      if (!frame) throw new Error('no session page in the frame');
      return frame.evaluate(expression) as Promise<T>;
    };
    const frameHeight = () => page.evaluate(`document.querySelector('#checkout iframe').getBoundingClientRect().height`) as Promise<number>;
    const contentHeight = () => inFrame<number>('Math.ceil(document.body.getBoundingClientRect().bottom + window.scrollY)');
    const sizedToContent = async () => (await frameHeight()) === (await contentHeight());

    await waitFor('the frame as tall as the checkout page', sizedToContent);
    const full = await frameHeight();

    // A part of the page collapses (as a notice or an error does): the frame shrinks with it, where it once kept its tallest height.
    await inFrame(`document.querySelector('.banks').hidden = true`);
    await waitFor('the frame shrunk to the shorter content', async () => (await frameHeight()) < full && (await sizedToContent()));
    await inFrame(`document.querySelector('.banks').hidden = false`);
    await waitFor('the frame grown back', async () => (await frameHeight()) === full && (await sizedToContent()));

    // Paid, then the frame reloaded: the short "payment received" page, below the 640 px the frame starts at.
    await env.simulatePayment(merchant.keys.test_secret, session.id, 'confirmed');
    await waitFor('onComplete', async () => (await state(page)).completed.length > 0);
    await inFrame('setTimeout(function () { location.reload(); }, 0)');
    await page.frameLocator('#checkout iframe').locator('h1', { hasText: 'Payment received' }).waitFor();
    await waitFor('the frame shrunk to the paid page', async () => (await frameHeight()) < 640 && (await sizedToContent()));
    expect(await state(page)).toMatchObject({ completed: [{ status: 'COMPLETED', session_id: session.id }], errors: [] });
    await page.close();
  });

  it('says in the frame that the checkout is not found, calls onError and stops polling once the checkout answers the frame’s status poll 404', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls());
    const page = await browser.context.newPage();
    // A session never stops existing (its events are kept), so the frame's polls get the checkout's own answer for one that never existed.
    const unknownStatus = `${env.checkoutUrl}/sessions/nosuchsession0000000000/status`;
    const polledAt: number[] = [];
    await page.route(`**/sessions/${session.id}/status`, async (route) => {
      polledAt.push(Date.now());
      await route.fulfill({ response: await route.fetch({ url: unknownStatus }) });
    });
    await page.goto(`${shop.origin}/shop?${new URLSearchParams({ pk: merchant.keys.test_publishable, cs: session.client_secret }).toString()}`);
    const frame = page.frameLocator('#checkout iframe');

    expect(await firstError(page)).toEqual([{ message: 'Checkout session not found' }]);
    expect(await frame.locator('#live-status').textContent()).toBe('This payment link is not valid. Please go back to the merchant and start again.');
    const countdownWhenGone = await frame.locator('#countdown').textContent();
    await page.waitForTimeout(2500);
    expect(polledAt).toHaveLength(1);
    expect(await frame.locator('#countdown').textContent()).toBe(countdownWhenGone);
    expect((await state(page)).completed).toEqual([]);
    await page.close();
  });

  it('calls onError for a wrong client secret', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls());
    const wrong = `${session.id}_secret_${'x'.repeat(32)}`;
    for (const cs of [wrong, 'not-a-secret']) {
      const { page } = await openShop({ pk: merchant.keys.test_publishable, cs });
      expect(await firstError(page)).toEqual([{ message: 'Invalid client secret: no such checkout session' }]);
      await page.close();
    }
  });

  it('calls onError for a wrong key, a secret key, and a key of the other mode', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls());
    const cases: Array<[string, RegExp]> = [
      [`pp_pub_test_${randomBytes(16).toString('hex')}`, /^Invalid publishable key$/],
      [merchant.keys.test_secret, /publishable key/],
      // The other mode's key is told what a stranger is: the session is not found.
      [merchant.keys.live_publishable, /^Invalid client secret: no such checkout session$/],
    ];
    for (const [pk, message] of cases) {
      const { page } = await openShop({ pk, cs: session.client_secret });
      const errors = await firstError(page);
      expect(errors).toHaveLength(1);
      expect(errors[0].message).toMatch(message);
      await page.close();
    }
  });

  it('ignores messages from any other origin or window', async () => {
    const session = await env.createSession(merchant.keys.test_secret, urls());
    const { page } = await openShop({ pk: merchant.keys.test_publishable, cs: session.client_secret, foreign: `${foreign.origin}/spoof` });
    await page.frameLocator('#checkout iframe').locator('#memo').waitFor();
    await waitFor('spoofed messages delivered', async () => (await state(page)).received.filter((m) => m.origin === foreign.origin).length === 2);
    await page.evaluate(`window.postMessage({ type: 'pp:complete', status: 'COMPLETED' }, '*')`);
    await waitFor('own-window message delivered', async () => (await state(page)).received.some((m) => m.origin === shop.origin));
    expect(await state(page)).toMatchObject({ completed: [], errors: [] });
    await page.close();
  });

  it('given the frame pointed at another session already paid (from the console), then it does not call onComplete for this unpaid one', async () => {
    const paid = await env.createSession(merchant.keys.test_secret, urls());
    await env.simulatePayment(merchant.keys.test_secret, paid.id, 'confirmed');
    const unpaid = await env.createSession(merchant.keys.test_secret, urls());
    const { page } = await openShop({ pk: merchant.keys.test_publishable, cs: unpaid.client_secret });
    await page.frameLocator('#checkout iframe').locator('#memo').waitFor();

    await page.evaluate(`document.querySelector('#checkout iframe').src = ${JSON.stringify(`${env.checkoutUrl}/embed/sessions/${paid.id}?parent_origin=${shop.origin}`)}`);
    await waitFor('the paid session’s page in the frame', async () => (await state(page)).received.some((m) => m.type === 'pp:complete'));
    // onComplete would run a task after the message (checkout.js calls it from a timer): give it time to.
    await page.waitForTimeout(500);
    expect(await state(page)).toMatchObject({ completed: [], errors: [] });
    await page.close();
  });

  /** Frames `src` in the merchant's page without the client script and answers the first message the frame sends it. */
  async function firstFrameMessage(src: string) {
    const page = await browser.context.newPage();
    await page.goto(`${shop.origin}/framing?${new URLSearchParams({ src }).toString()}`);
    await waitFor('the frame’s message', async () => ((await page.evaluate('window.__messages.length')) as number) > 0);
    return { page, message: await page.evaluate('window.__messages[0]') };
  }

  it('shows a failing session page inside the frame and tells the merchant’s page the error', async () => {
    const { page, message } = await firstFrameMessage(`${env.checkoutUrl}/embed/sessions/cs_unknown000000000000000000?parent_origin=${encodeURIComponent(shop.origin)}`);
    expect(message).toEqual({ type: 'pp:error', message: 'Checkout not found' });
    expect(await page.frameLocator('iframe').locator('h1').textContent()).toBe('Checkout not found');
    await page.close();
  });

  it('refuses to be embedded by a site missing from the merchant’s frame_ancestors, with an error page in the frame that shows nothing of the session', async () => {
    const strict = await env.createMerchant('Strict Shop', { frame_ancestors: ['https://only.example.com'] });
    const session = await env.createSession(strict.keys.test_secret, urls());
    const { page } = await openShop({ pk: strict.keys.test_publishable, cs: session.client_secret });
    expect((await firstError(page))[0].message).toContain('not allowed to embed');
    const src = `${env.checkoutUrl}/embed/sessions/${session.id}?parent_origin=${encodeURIComponent(shop.origin)}`;
    const direct = await fetch(src);
    expect(direct.status).toBe(403);
    const refusal = await direct.text();
    expect(refusal).toContain('data-final-status="ERROR"');
    expect(refusal).not.toContain(session.memo);
    expect(refusal).not.toContain('Strict Shop');
    // Framed for the site that asked, so the frame is not left blank: it shows the refusal and tells that page.
    const framed = await firstFrameMessage(src);
    expect(framed.message).toEqual({ type: 'pp:error', message: 'Checkout not found' });
    expect(await framed.page.frameLocator('iframe').locator('h1').textContent()).toBe('Checkout not found');
    const allowed = await fetch(`${env.checkoutUrl}/embed/sessions/${session.id}?parent_origin=https%3A%2F%2Fonly.example.com`);
    expect(allowed.headers.get('content-security-policy')).toContain('frame-ancestors https://only.example.com');
    await Promise.all([page.close(), framed.page.close()]);
  });

  it('shows the frame’s first document refused for a missing publishable key inside the frame, and tells the merchant’s page', async () => {
    const { page, message } = await firstFrameMessage(`${env.checkoutUrl}/embed?parent_origin=${encodeURIComponent(shop.origin)}`);
    expect(message).toEqual({ type: 'pp:error', message: 'Checkout not found' });
    expect(await page.frameLocator('iframe').locator('h1').textContent()).toBe('Checkout not found');
    await page.close();
  });

  it('calls onError 15 s after mounting a frame that never says pp:ready, and never for a frame that loaded; a frame only slow still completes', async () => {
    const [blankSession, session, slowSession] = await Promise.all([1, 2, 3].map(() => env.createSession(merchant.keys.test_secret, urls())));
    const blank = await browser.context.newPage();
    // The frame's first document answered blank: what a checkout that is down, or an answer refused framing, leaves.
    await blank.route(`${env.checkoutUrl}/embed?*`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));
    // The frame's first document answered after 16 s: a phone on a poor network.
    const slow = await browser.context.newPage();
    await slow.route(`${env.checkoutUrl}/embed?*`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 16_000));
      await route.continue();
    });
    const mounted = Date.now();
    await blank.goto(`${shop.origin}/shop?${new URLSearchParams({ pk: merchant.keys.test_publishable, cs: blankSession.client_secret }).toString()}`);
    // Not waiting for the load event, which waits for the frame.
    await slow.goto(`${shop.origin}/shop?${new URLSearchParams({ pk: merchant.keys.test_publishable, cs: slowSession.client_secret }).toString()}`, { waitUntil: 'domcontentloaded' });
    const loadedMounted = Date.now();
    const { page: loaded } = await openShop({ pk: merchant.keys.test_publishable, cs: session.client_secret });
    await loaded.frameLocator('#checkout iframe').locator('#memo').waitFor();

    await waitFor('onError of the blank frame', async () => (await state(blank)).errors.length > 0, { timeoutMs: 25_000 });
    expect(Date.now() - mounted).toBeGreaterThanOrEqual(15_000);
    expect(await state(blank)).toMatchObject({ completed: [], errors: [{ message: 'Checkout could not be loaded' }] });
    // The frame that loaded spoke (pp:ready, then its session page): past its own 15 s, its page has heard of no error.
    await loaded.waitForTimeout(Math.max(0, loadedMounted + 16_000 - Date.now()));
    expect(await state(loaded)).toMatchObject({ completed: [], errors: [] });
    // The slow frame was reported as not loading, then loaded: paid, it still completes.
    await slow.frameLocator('#checkout iframe').locator('#memo').waitFor({ timeout: 20_000 });
    await env.simulatePayment(merchant.keys.test_secret, slowSession.id, 'confirmed');
    await waitFor('onComplete of the slow frame', async () => (await state(slow)).completed.length > 0, { timeoutMs: 10_000 });
    expect(await state(slow)).toMatchObject({ completed: [{ status: 'COMPLETED' }], errors: [{ message: 'Checkout could not be loaded' }] });
    await Promise.all([blank.close(), loaded.close(), slow.close()]);
  }, 90_000);
});
