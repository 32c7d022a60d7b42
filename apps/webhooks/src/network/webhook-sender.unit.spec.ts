import { sendWebhook } from './webhook-sender';

// A name service that never answers (a DNS server gone silent, longer than any attempt's deadline).
jest.mock('node:dns/promises', () => {
  const never = () => new Promise(() => undefined);
  return { Resolver: class { resolve4 = never; resolve6 = never; }, lookup: never };
});

describe('sendWebhook', () => {
  it('given a host whose lookup never answers, when an attempt is made, then it ends at its deadline, not sent, the lookup counted in', async () => {
    const response = await sendWebhook({
      url: 'https://hooks.slow-dns.example/receive',
      body: Buffer.from('{}'),
      headers: {},
      timeoutMs: 100,
      allowPrivate: false,
    });
    expect(response).toMatchObject({ httpStatus: null, retryAfterMs: null, error: 'not sent: the host did not resolve within 100 ms' });
    expect(response.latencyMs).toBeGreaterThanOrEqual(95);
    expect(response.latencyMs).toBeLessThan(1_000);
  });
});
