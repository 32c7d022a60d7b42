import { REDIS_COMMAND_TIMEOUT_MS } from '@pp/platform';
import { startStackWithFreezableRedis, type StackWithFreezableRedis } from '@pp/testing';
import { GatewayClient } from '../testing/gateway-client';

const session = (reference: string) => ({ amount: 1250, currency: 'cad', reference, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' });

/*
 * The gateway against a Redis that stops answering without closing its
 * connections (a paused server, a cut network): no socket error says so.
 * Each Redis command has a deadline (serviceRedis), after which the request
 * goes on as it does when Redis is away: the rate limit lets it through,
 * and a request with an Idempotency-Key, which cannot be reserved, is
 * answered 503. Without the deadline both requests waited as long as the
 * connection lived.
 */
describe('gateway: Redis stops answering', () => {
  let frozen: StackWithFreezableRedis;
  let gateway: GatewayClient;

  beforeAll(async () => {
    frozen = await startStackWithFreezableRedis({ services: ['gateway', 'sessions', 'ledger'], label: 'redisfrozen' });
    gateway = new GatewayClient(frozen.stack);
  });
  afterAll(() => frozen?.stop());

  const timed = async <T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> => {
    const started = Date.now();
    const result = await call();
    return { result, ms: Date.now() - started };
  };

  it('given Redis holds back its answers, then a session is still read (uncounted) and a new one, whose Idempotency-Key cannot be reserved, is refused with 503, each after the command deadline; once Redis answers, requests are counted again', async () => {
    const merchant = await gateway.createMerchant();
    const key = merchant.keys.test_secret;
    const created = await gateway.call<{ id: string }>('/v1/checkout/sessions', { token: key, body: session('order-1') });
    expect(created.status).toBe(201);

    frozen.redis.freeze();
    const read = await timed(() => gateway.call<{ id: string }>(`/v1/checkout/sessions/${created.body.id}`, { token: key }));
    const create = await timed(() => gateway.call('/v1/checkout/sessions', { token: key, body: session('order-2') }));

    expect(read.result.status).toBe(200);
    expect(read.result.body.id).toBe(created.body.id);
    expect(read.result.headers.get('x-ratelimit-remaining')).toBe(read.result.headers.get('x-ratelimit-limit')); // not counted
    expect(read.ms).toBeGreaterThanOrEqual(REDIS_COMMAND_TIMEOUT_MS - 50);
    expect(create.result.status).toBe(503);
    expect(create.result.body).toEqual({ error: 'Service unavailable' });
    expect(create.result.headers.get('retry-after')).toBe('1');
    expect(create.ms).toBeGreaterThanOrEqual(REDIS_COMMAND_TIMEOUT_MS - 50);
    // One deadline each, not the connection's lifetime (the client would wait for good).
    expect(read.ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS * 3);
    expect(create.ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS * 3);

    frozen.redis.thaw();
    const after = await gateway.call('/v1/checkout/sessions', { token: key, body: session('order-3') });
    expect(after.status).toBe(201);
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBeLessThan(Number(after.headers.get('x-ratelimit-limit')));
  });
});
