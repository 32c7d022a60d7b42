import { CheckoutTestStack, type Merchant } from '../testing/checkout-test-stack';

/*
 * The embedded frame's POST /embed/session given a publishable key or client
 * secret that could never be one (a line break, a character past Latin-1,
 * which no HTTP header can carry): answered exactly as a well-formed unknown
 * key or secret is, by the gateway, never as "checkout unavailable".
 */
describe('embedded checkout: a key or secret of the wrong shape', () => {
  let checkout: CheckoutTestStack;
  let merchant: Merchant;

  beforeAll(async () => {
    checkout = await CheckoutTestStack.start('embedshapes');
    merchant = await checkout.createMerchant('Embedded Shapes');
  });
  afterAll(() => checkout?.stop());

  const open = async (publishableKey: string, clientSecret: string) => {
    const response = await fetch(`${checkout.checkoutUrl}/embed/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ publishable_key: publishableKey, client_secret: clientSecret, parent_origin: 'https://a.example' }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  const unknownKey = `pp_pub_test_${'A1b2C3'.repeat(5)}xyz`;
  const unknownSecret = `c${'0'.repeat(23)}_secret_${'A1b2C3'.repeat(4)}`;

  it.each([
    ['a non-Latin-1 key and a secret with a line break', 'pk€', 'x\n'],
    ['a key with a line break', `${unknownKey}\nx-injected: 1`, unknownSecret],
  ])('given %s, then it is answered as an unknown key (401)', async (_case, key, secret) => {
    const expected = await open(unknownKey, unknownSecret);
    expect(expected).toEqual({ status: 401, body: { error: 'Invalid publishable key' } });

    expect(await open(key, secret)).toEqual(expected);
  });

  it.each([
    // Within the value: fetch trims whitespace at its ends.
    ['a line break', `${unknownSecret}\nx-injected: 1`],
    ['a non-Latin-1 character', `c${'0'.repeat(23)}_secret_€${'A1b2C3'.repeat(4)}`],
  ])('given the merchant’s key and a secret with %s, then it is answered as an unknown secret (404)', async (_case, secret) => {
    const expected = await open(merchant.keys.test_publishable, unknownSecret);
    expect(expected).toEqual({ status: 404, body: { error: 'Invalid client secret: no such checkout session' } });

    expect(await open(merchant.keys.test_publishable, secret)).toEqual(expected);
  });

  it('given a NUL in the body, or a body that is not JSON, then it is refused at the edge, as at the gateway', async () => {
    expect(await open(`pp_pub_\u0000`, unknownSecret)).toEqual({ status: 400, body: { error: 'Validation failed: body.publishable_key must not contain NUL characters' } });
    const form = await fetch(`${checkout.checkoutUrl}/embed/session`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'publishable_key=x' });
    expect(form.status).toBe(415);
  });
});
