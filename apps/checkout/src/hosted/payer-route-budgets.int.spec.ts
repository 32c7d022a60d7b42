import { CheckoutTestStack, type Merchant } from '../testing/checkout-test-stack';

/*
 * The payer routes need no key, so the checkout app budgets them itself: each
 * client address (X-Forwarded-For, believed from the loopback test peer), its
 * pages and its status polls apart.
 */

const ADDRESS_LIMIT = 5;
const STATUS_POLL_LIMIT = 10;
const URLS = { success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' };

describe('payer route budgets of the checkout app', () => {
  let checkout: CheckoutTestStack;
  let merchant: Merchant;

  beforeAll(async () => {
    checkout = await CheckoutTestStack.start('payerroutes', {
      CHECKOUT_RATE_LIMIT_PER_ADDRESS_PER_SECOND: String(ADDRESS_LIMIT),
      CHECKOUT_STATUS_POLLS_PER_ADDRESS_PER_SECOND: String(STATUS_POLL_LIMIT),
    });
    merchant = await checkout.createMerchant('Budgeted Shop');
  });
  afterAll(() => checkout?.stop());

  const page = (sessionId: string, payer: string) => fetch(`${checkout.checkoutUrl}/sessions/${sessionId}`, { headers: { 'x-forwarded-for': payer } });
  const status = (sessionId: string, payer: string) => fetch(`${checkout.checkoutUrl}/sessions/${sessionId}/status`, { headers: { 'x-forwarded-for': payer } });

  it('given one address polling too fast, then it is answered 429 with Retry-After, and another address is not', async () => {
    const session = await checkout.createSession(merchant.keys.test_secret, URLS);
    const burst = await Promise.all(Array.from({ length: 4 * STATUS_POLL_LIMIT }, () => status(session.id, '203.0.113.70')));
    const refused = burst.filter((response) => response.status === 429);

    // At most STATUS_POLL_LIMIT per window, twice that if the burst straddles two.
    expect(refused.length).toBeGreaterThanOrEqual(2 * STATUS_POLL_LIMIT);
    expect(burst.filter((response) => response.status !== 429).every((response) => response.status === 200)).toBe(true);
    expect(refused[0].headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await refused[0].json()).toEqual({ error: 'Too many requests; try again shortly' });
    const other = await status(session.id, '198.51.100.71');
    expect(other.status).toBe(200);
    expect(await other.json()).toEqual({ status: 'PENDING', expires_at: session.expires_at });
  });

  it('given the pages’ budget spent by status polls from one address (payers behind one NAT), then a page load from it still succeeds, and page loads keep their own limit', async () => {
    const session = await checkout.createSession(merchant.keys.test_secret, URLS);
    const payers = '203.0.113.80';
    // More polls than the pages' budget holds even over two windows, all within the polls' own budget.
    const polls = await Promise.all(Array.from({ length: STATUS_POLL_LIMIT }, () => status(session.id, payers)));
    expect(polls.map((response) => response.status)).toEqual(Array.from({ length: STATUS_POLL_LIMIT }, () => 200));

    const load = await page(session.id, payers);
    expect(load.status).toBe(200);
    expect(load.headers.get('content-type')).toMatch(/^text\/html/);

    const loads = await Promise.all(Array.from({ length: 4 * ADDRESS_LIMIT }, () => page(session.id, payers)));
    expect(loads.filter((response) => response.status === 429).length).toBeGreaterThanOrEqual(2 * ADDRESS_LIMIT - 1);
  });
});
