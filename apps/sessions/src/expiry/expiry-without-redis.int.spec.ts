import { randomUUID } from 'node:crypto';
import { CheckoutSessionEventType, type CreateCheckoutSessionCommand, type MerchantScope } from '@pp/contracts';
import type { BusClient } from '@pp/platform';
import { startStackWithFreezableRedis, type StackWithFreezableRedis, waitFor } from '@pp/testing';

const SCOPE: MerchantScope = { merchant_id: 'mer_exp_noredis', livemode: false };
const SWEEP_INTERVAL_MS = 500;

/*
 * Session expiry while Redis does not answer (a paused server, a cut
 * network; a Redis that is down holds BullMQ's calls the same way): the
 * scheduled sweep cannot run, and the call that puts its schedule back
 * waits for Redis. Each replica's own sweep does not wait for that call,
 * so sessions still expire at their deadline.
 */
describe('checkout session expiry while Redis does not answer (TTL 2 s)', () => {
  let frozen: StackWithFreezableRedis;
  let bus: BusClient;

  beforeAll(async () => {
    frozen = await startStackWithFreezableRedis({
      services: ['ledger', 'sessions'],
      label: 'expirynoredis',
      env: { SESSION_TTL_SECONDS: '2', SESSION_EXPIRY_SWEEP_MS: '300', SESSION_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS) },
    });
    bus = await frozen.stack.bus(10_000);
  });
  afterAll(() => frozen?.stop());

  const status = async (id: string) => (await bus.request('sessions.get.v1', { ...SCOPE, session_id: id })).status;
  /** When the sweep's fact says the session expired; undefined before it has. */
  const expiredAt = async (id: string) => {
    const { events } = await bus.request('ledger.stream.read.v1', { stream_id: `checkout_session-${id}` });
    const expired = events.find((event) => event.type === CheckoutSessionEventType.Expired);
    return expired ? Date.parse((expired.data as { expired_at: string }).expired_at) : undefined;
  };

  it('given Redis stopped answering before the session was created, then the session still expires at its deadline', async () => {
    frozen.redis.freeze();
    // Let the sweeper's interval come round while Redis holds its scheduling call.
    await new Promise((resolve) => setTimeout(resolve, 2 * SWEEP_INTERVAL_MS));
    const created = await bus.request('sessions.create.v1', {
      ...SCOPE,
      body: { amount: 1000, currency: 'cad', reference: `r-${randomUUID()}`, success_url: 'https://a.example/s', cancel_url: 'https://a.example/c' },
      idempotency: { key: randomUUID(), fingerprint: 'fp' },
    } as CreateCheckoutSessionCommand);
    expect(await status(created.id)).toBe('PENDING');

    // Its status reads EXPIRED from the deadline on; the sweep's fact is what shows it ran.
    const expired = await waitFor('the sweep to expire the session', () => expiredAt(created.id), { timeoutMs: 15_000 });
    expect(expired).toBeGreaterThanOrEqual(Date.parse(created.expires_at));
    expect(await status(created.id)).toBe('EXPIRED');
  });
});
