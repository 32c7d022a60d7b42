import { TestStack, waitFor } from '@pp/testing';
import { GatewayClient } from '../testing/gateway-client';

describe('rate limit per API key', () => {
  let stack: TestStack;
  let gateway: GatewayClient;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'ratelimit', env: { RATE_LIMIT_TEST_PER_SECOND: '4' } });
    gateway = new GatewayClient(stack);
  });
  afterAll(() => stack?.stop());

  const retrieve = (key: string) => gateway.call('/v1/checkout/sessions/clx0000000000000000000000', { token: key });

  it('answers a burst over the limit with 429 and Retry-After, and serves the next window', async () => {
    const merchant = await gateway.createMerchant();
    const key = (await gateway.issueKey(merchant.merchant_id, { type: 'secret', livemode: true, rate_limit_per_second: 3 })).key;

    const burst = await Promise.all(Array.from({ length: 10 }, () => retrieve(key)));
    const served = burst.filter((r) => r.status !== 429);
    const limited = burst.filter((r) => r.status === 429);
    // Exactly 3 per window; a burst that happens to straddle two windows is served at most twice that.
    expect(served.length).toBeGreaterThanOrEqual(3);
    expect(served.length).toBeLessThanOrEqual(6);
    expect(limited.length).toBe(10 - served.length);
    for (const response of limited) {
      expect(response.body).toEqual({ error: 'Rate limit exceeded' });
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.headers.get('x-ratelimit-limit')).toBe('3');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    expect(served.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(expect.arrayContaining(['0', '1', '2']));

    const next = await waitFor('the next window', async () => {
      const response = await retrieve(key);
      return response.status === 429 ? undefined : response;
    }, { timeoutMs: 3000, intervalMs: 250 });
    expect(next.status).toBe(503); // served: it passed the limiter and reached the (absent) sessions service
    expect(next.headers.get('x-ratelimit-limit')).toBe('3');
  });

  it('takes a test key’s default from RATE_LIMIT_TEST_PER_SECOND and counts each key on its own', async () => {
    const merchant = await gateway.createMerchant();
    const burst = await Promise.all(Array.from({ length: 6 }, () => retrieve(merchant.keys.test_secret)));
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1);
    expect(burst[0]!.headers.get('x-ratelimit-limit')).toBe('4');
    const other = await retrieve(merchant.keys.live_secret);
    expect(other.status).toBe(503);
    expect(other.headers.get('x-ratelimit-limit')).toBe('100');
  });
});
