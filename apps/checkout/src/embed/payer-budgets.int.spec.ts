import { randomBytes } from 'node:crypto';
import { CheckoutTestStack, type Merchant } from '../testing/checkout-test-stack';

/*
 * The embedded frame's path (payer → checkout app → gateway's publishable-key
 * route): the checkout app forwards the payer's address, so the gateway's
 * per-address budget (default 20 per second) throttles one payer's junk
 * without touching another payer. Addresses are given as X-Forwarded-For,
 * believed because the test is a loopback peer (TRUSTED_PROXIES defaults to
 * loopback in both apps).
 */

const ADDRESS_LIMIT = 20; // CLIENT_RATE_LIMIT_PER_ADDRESS_PER_SECOND's default

describe('embedded checkout budgets through the checkout app', () => {
  let checkout: CheckoutTestStack;
  let merchant: Merchant;

  beforeAll(async () => {
    // The checkout app's own per-address budget out of the way: this is the gateway's.
    checkout = await CheckoutTestStack.start('payerbudgets', { CHECKOUT_RATE_LIMIT_PER_ADDRESS_PER_SECOND: '1000' });
    merchant = await checkout.createMerchant('Embedded Shop');
  });
  afterAll(() => checkout?.stop());

  const embed = (secret: string, payer: string) =>
    fetch(`${checkout.checkoutUrl}/embed/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': payer },
      body: JSON.stringify({ publishable_key: merchant.keys.test_publishable, client_secret: secret, parent_origin: 'https://shop.example' }),
    });

  it('throttles one payer’s junk and still opens another payer’s session', async () => {
    const session = await checkout.createSession(merchant.keys.test_secret, { success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' });
    const junkSecret = () => `c${randomBytes(12).toString('hex')}_secret_${randomBytes(16).toString('hex')}`;
    const junk = await Promise.all(Array.from({ length: 3 * ADDRESS_LIMIT }, () => embed(junkSecret(), '203.0.113.50')));
    const throttled = junk.filter((response) => response.status === 429);
    const refused = await Promise.all(throttled.map((response) => response.json()));
    // The gateway's 429 passed on with its wait, not a refusal of the key; at most ADDRESS_LIMIT per window, twice that if the burst straddles two.
    expect(refused.length).toBeGreaterThanOrEqual(ADDRESS_LIMIT);
    expect(refused[0]).toEqual({ error: 'Too many requests; try again shortly' });
    expect(Number(throttled[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(junk.map((response) => response.status).filter((status) => status !== 404 && status !== 429)).toEqual([]);

    const payer = await embed(session.client_secret, '198.51.100.60');
    expect(payer.status).toBe(200);
    expect(await payer.json()).toEqual({ session_id: session.id });
  });
});
