import { CheckoutSessionEventType, checkoutSessionStreamId, ErrorCode, MerchantEventType } from '@pp/contracts';
import { checkoutSessionCreated, type InMemoryEventStore, inMemoryRuntime } from '@pp/testing';
import { CheckoutSessionLifecycle } from './checkout-session.lifecycle';

const T0 = new Date('2026-11-22T01:00:00.000Z');
const DEADLINE = new Date(T0.getTime() + 1800_000);
const SCOPE = { merchant_id: 'mer_1', livemode: false };
const STREAM = checkoutSessionStreamId('cs1');

const created = checkoutSessionCreated(SCOPE, T0);

/** A lifecycle whose clock reads `now`, over `store` (by default a fresh one holding the created session). */
function lifecycleAt(now: Date, store?: InMemoryEventStore) {
  const runtime = inMemoryRuntime({ now: () => now }, store);
  if (!store) runtime.store.given(STREAM, [created], SCOPE);
  return { store: runtime.store, lifecycle: new CheckoutSessionLifecycle(runtime.runner) };
}

describe('checkout session lifecycle over the in-memory event store', () => {
  it('given a session of another merchant, when expired early: not found, and nothing appended', async () => {
    const { store, lifecycle } = lifecycleAt(T0);
    const refusal = await lifecycle.expireEarly({ merchant_id: 'mer_2', livemode: false }, 'cs1').catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: ErrorCode.NotFound, message: 'Checkout session not found' });
    expect(store.events(STREAM)).toHaveLength(1);
  });

  it('given a session past its deadline, when expired twice: one expiry, the second answers EXPIRED', async () => {
    const { store, lifecycle } = lifecycleAt(new Date(DEADLINE.getTime() + 1));
    expect(await lifecycle.expire('cs1')).toMatchObject({ status: 'EXPIRED' });
    expect(await lifecycle.expire('cs1')).toMatchObject({ status: 'EXPIRED' });
    expect(store.events(STREAM).map((event) => event.type)).toEqual([
      CheckoutSessionEventType.Created,
      CheckoutSessionEventType.Expired,
      MerchantEventType.CheckoutSessionExpired,
    ]);
  });
});
