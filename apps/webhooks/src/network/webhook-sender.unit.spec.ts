import { sendWebhook } from './webhook-sender';

// A resolver that never answers (a DNS server gone silent): getaddrinfo has no timeout of its own.
jest.mock('node:dns/promises', () => ({ lookup: () => new Promise(() => undefined) }));

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
