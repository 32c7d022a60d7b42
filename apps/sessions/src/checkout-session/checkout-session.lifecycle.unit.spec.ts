import { CheckoutSessionEventType, checkoutSessionStreamId, DomainError, ErrorCode, MerchantEventType, SESSION_EXPIRED_RULE } from '@pp/contracts';
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
  it('given a pending session, when completed: appends the fact and its twin at the loaded version', async () => {
    const { store, lifecycle } = lifecycleAt(new Date(T0.getTime() + 60_000));
    const session = await lifecycle.complete(SCOPE, 'cs1', 'txn_1');
    expect(session).toMatchObject({ status: 'COMPLETED', transaction_id: 'txn_1' });
    expect(store.events(STREAM).map((event) => [event.type, event.version])).toEqual([
      [CheckoutSessionEventType.Created, 1],
      [CheckoutSessionEventType.Completed, 2],
      [MerchantEventType.CheckoutSessionCompleted, 3],
    ]);
  });

  it('given a session of another merchant, when completed: not found, and nothing appended', async () => {
    const { store, lifecycle } = lifecycleAt(T0);
    const refusal = await lifecycle.complete({ merchant_id: 'mer_2', livemode: false }, 'cs1', null).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: ErrorCode.NotFound, message: 'Checkout session not found' });
    expect(store.events(STREAM)).toHaveLength(1);
  });

  it('given a pending session, when a completion before the deadline races an expiry after it: exactly one wins, the loser decides again on its outcome', async () => {
    // Two deciders with their own clocks over one store: one still before the deadline, one after it.
    const { store, lifecycle: payer } = lifecycleAt(new Date(DEADLINE.getTime() - 500));
    const { lifecycle: expirer } = lifecycleAt(new Date(DEADLINE.getTime() + 1), store);
    const [completed, expired] = await Promise.allSettled([payer.complete(SCOPE, 'cs1', null), expirer.expire('cs1')]);

    const terminal = store.events(STREAM).slice(1).map((event) => event.type);
    if (completed.status === 'fulfilled') {
      expect(terminal).toEqual([CheckoutSessionEventType.Completed, MerchantEventType.CheckoutSessionCompleted]);
      expect(expired).toMatchObject({ status: 'fulfilled', value: { status: 'COMPLETED' } });
    } else {
      expect(terminal).toEqual([CheckoutSessionEventType.Expired, MerchantEventType.CheckoutSessionExpired]);
      expect(completed.reason).toBeInstanceOf(DomainError);
      expect((completed.reason as DomainError).details).toEqual({ rule: SESSION_EXPIRED_RULE });
    }
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
