import { DomainError, ErrorCode } from '@pp/contracts';
import { randomToken } from '@pp/kernel';
import type { CheckoutConfig } from '../checkout.config';
import { ClientSessionResolver } from './client-session.resolver';

/*
 * The publishable key is checked against the exact shape the gateway mints
 * keys in (@pp/contracts identity/api-key-shape.ts) before the gateway is
 * asked: a key of any other shape is refused here as the gateway refuses an
 * unknown key, and a key of that shape is passed on for the gateway to look up.
 */
describe('ClientSessionResolver: the publishable key’s shape', () => {
  const resolver = new ClientSessionResolver({ GATEWAY_URL: 'http://gateway.invalid/' } as CheckoutConfig);
  const clientSecret = `c${'0'.repeat(23)}_secret_${'A1b2C3'.repeat(4)}`;
  const session = { id: `c${'0'.repeat(23)}` };
  let fetchMock: jest.SpyInstance;

  beforeEach(() => {
    fetchMock = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(session), { status: 200 }));
  });
  afterEach(() => fetchMock.mockRestore());

  it.each(['pp_pub_', 'pp_pub_test_'])('passes a freshly minted %s key on to the gateway', async (prefix) => {
    const key = prefix + randomToken(24);
    await expect(resolver.resolve(key, clientSecret, '203.0.113.7')).resolves.toEqual(session);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('http://gateway.invalid/v1/client/checkout_session');
    expect(init.headers).toMatchObject({ authorization: `Bearer ${key}` });
  });

  const body = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q';
  it.each([
    ['a body one character short', `pp_pub_test_${body.slice(1)}`],
    ['a body one character long', `pp_pub_${body}x`],
    ['a body of the old loose shape’s length', `pp_pub_test_${'a'.repeat(100)}`],
    ['a non-base62 character', `pp_pub_${body.slice(0, 32)}-`],
    ['a line break', `pp_pub_test_${body}\nx-injected: 1`],
    ['a test secret key', `pp_live_test_${body}`],
    ['a restricted key', `pp_rk_${body}`],
    ['no mode between pp_pub and the body', `pp_pubtest_${body}`],
  ])('refuses %s as an unknown key, without asking the gateway', async (_case, key) => {
    const refused = resolver.resolve(key, clientSecret, '203.0.113.7');
    await expect(refused).rejects.toThrow(DomainError);
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.Unauthorized, message: 'Invalid publishable key' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

/* The 503s' words are for the log (the payer is told the checkout is unavailable): they say what failed. */
describe('ClientSessionResolver: why the gateway gave no session', () => {
  const resolver = new ClientSessionResolver({ GATEWAY_URL: 'http://gateway.invalid/' } as CheckoutConfig);
  const key = `pp_pub_test_${randomToken(24)}`;
  const clientSecret = `c${'0'.repeat(23)}_secret_${'A1b2C3'.repeat(4)}`;
  let fetchMock: jest.SpyInstance;
  afterEach(() => fetchMock.mockRestore());

  it('given a gateway that refuses the connection, then the 503 names fetch’s reason from its cause', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' });
    fetchMock = jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed', { cause: refused }));
    await expect(resolver.resolve(key, clientSecret, '203.0.113.7')).rejects.toMatchObject({
      code: ErrorCode.ServiceUnavailable,
      message: 'Gateway unreachable: fetch failed (ECONNREFUSED)',
    });
  });

  it.each([500, 502, 503])('given a gateway answering %i, then the 503 names the status', async (status) => {
    fetchMock = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify({ error: 'x' }), { status }));
    await expect(resolver.resolve(key, clientSecret, '203.0.113.7')).rejects.toMatchObject({ code: ErrorCode.ServiceUnavailable, message: `Gateway answered ${status}` });
  });
});
