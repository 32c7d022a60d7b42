import { type CheckoutSessionEvent, CheckoutSessionEventType, ErrorCode, MAX_AMOUNT_CENTS, MerchantEventType } from '@pp/contracts';
import { deciderSpec, refusalOf } from '@pp/testing';
import { type CheckoutSessionCommand, checkoutSessionAggregate, decide, fold } from './checkout-session.decider';

const T0 = new Date('2026-11-22T01:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const create: CheckoutSessionCommand = {
  kind: 'create',
  now: T0,
  ttlSeconds: 1800,
  session: {
    session_id: 'cs1',
    merchant_id: 'mer_1',
    livemode: false,
    amount: 2500,
    reference: 'order-1',
    memo: 'PP-7K3M9Q',
    client_secret: 'secret',
    success_url: 'https://shop.example/ok',
    cancel_url: 'https://shop.example/cancel',
    metadata: { cart: '42' },
  },
};

/** The history events: the facts a session's stream holds (their merchant-visible twins change no state). */
const created: CheckoutSessionEvent = {
  type: CheckoutSessionEventType.Created,
  schema_version: 1,
  data: { ...create.session, currency: 'CAD', created_at: T0.toISOString(), expires_at: at(1800).toISOString() },
};
const completedAt = (seconds: number): CheckoutSessionEvent => ({
  type: CheckoutSessionEventType.Completed,
  schema_version: 1,
  data: { session_id: 'cs1', completed_at: at(seconds).toISOString(), transaction_id: null },
});
const expiredAt = (seconds: number): CheckoutSessionEvent => ({
  type: CheckoutSessionEventType.Expired,
  schema_version: 1,
  data: { session_id: 'cs1', expired_at: at(seconds).toISOString() },
});

const { given } = deciderSpec({ ...checkoutSessionAggregate, decide });

const refusal = refusalOf;

describe('checkout session decider', () => {
  it('given nothing, when created: a PENDING session that expires after the TTL', () => {
    const events = given().when(create);
    expect(events).toEqual([
      {
        type: CheckoutSessionEventType.Created,
        schema_version: 1,
        data: expect.objectContaining({
          session_id: 'cs1',
          currency: 'CAD',
          amount: 2500,
          created_at: '2026-11-22T01:00:00.000Z',
          expires_at: '2026-11-22T01:30:00.000Z',
        }),
      },
    ]);
    expect(fold(events)).toMatchObject({ id: 'cs1', status: 'PENDING', merchant_id: 'mer_1', livemode: false });
  });

  it.each([12.5, 0, -100, MAX_AMOUNT_CENTS + 1, Number.NaN])('given nothing, when created for an amount of %p cents: refused, nothing recorded', (amount) => {
    const error = refusal(() => given().when({ ...create, session: { ...create.session, amount } }));
    expect({ code: error.code, message: error.message }).toEqual({
      code: ErrorCode.ValidationFailed,
      message: `Validation failed: amount must be whole cents from 1 to ${MAX_AMOUNT_CENTS}`,
    });
  });

  it('given a session, when created again: refused', () => {
    expect(refusal(() => given(created).when(create)).code).toBe(ErrorCode.Conflict);
  });

  it('given a pending session, when completed before the deadline: completed, with the merchant-visible event, naming the payment and its status (SPEC §2.3: data.status is the transaction’s)', () => {
    const events = given(created).when({ kind: 'complete', now: at(60), transactionId: 'txn_1' });
    expect(events.map((event) => event.type)).toEqual([CheckoutSessionEventType.Completed, MerchantEventType.CheckoutSessionCompleted]);
    expect(events[1].data).toEqual({ reference: 'order-1', amount: 2500, status: 'CONFIRMED', metadata: { cart: '42' }, session_id: 'cs1', payment_id: 'txn_1' });
    expect(fold(events, given(created).state())).toMatchObject({ status: 'COMPLETED', transaction_id: 'txn_1' });
  });

  it('given a completed session, when completed again: nothing (idempotent)', () => {
    expect(given(created, completedAt(60)).when({ kind: 'complete', now: at(61), transactionId: null })).toEqual([]);
  });

  it('given a pending session past its deadline, when completed: refused as expired', () => {
    const error = refusal(() => given(created).when({ kind: 'complete', now: at(1800), transactionId: null }));
    expect(error).toMatchObject({ code: ErrorCode.Conflict, message: 'Checkout session expired' });
  });

  it('given nothing, when completed or expired: not found', () => {
    expect(refusal(() => given().when({ kind: 'complete', now: T0, transactionId: null })).code).toBe(ErrorCode.NotFound);
    expect(refusal(() => given().when({ kind: 'expire', now: T0 })).code).toBe(ErrorCode.NotFound);
  });

  it('given a pending session, when expired at the deadline: expired, with checkout.session.expired', () => {
    const events = given(created).when({ kind: 'expire', now: at(1800) });
    expect(events).toEqual([
      { type: CheckoutSessionEventType.Expired, schema_version: 1, data: { session_id: 'cs1', expired_at: '2026-11-22T01:30:00.000Z' } },
      {
        type: MerchantEventType.CheckoutSessionExpired,
        schema_version: 1,
        data: { reference: 'order-1', amount: 2500, status: 'EXPIRED', metadata: { cart: '42' }, session_id: 'cs1' },
      },
    ]);
  });

  it('given a pending session, when expired before the deadline: nothing yet', () => {
    expect(given(created).when({ kind: 'expire', now: at(1799) })).toEqual([]);
  });

  it('given a pending test session, when expired early (sandbox): expired now, with checkout.session.expired', () => {
    const events = given(created).when({ kind: 'expire', now: at(60), early: true });
    expect(events.map((event) => event.type)).toEqual([CheckoutSessionEventType.Expired, MerchantEventType.CheckoutSessionExpired]);
    expect(events[0].data).toEqual({ session_id: 'cs1', expired_at: at(60).toISOString() });
  });

  it('given a pending live session, when expired early: refused; given a completed test session: nothing', () => {
    const live = { ...created, data: { ...created.data, livemode: true } } as CheckoutSessionEvent;
    expect(refusal(() => given(live).when({ kind: 'expire', now: at(60), early: true }))).toMatchObject({ code: ErrorCode.Forbidden });
    expect(given(created, completedAt(10)).when({ kind: 'expire', now: at(60), early: true })).toEqual([]);
  });

  it('given an expired session, when expired again or completed: nothing, or refused', () => {
    const expired = given(created, expiredAt(1800));
    expect(expired.when({ kind: 'expire', now: at(1900) })).toEqual([]);
    expect(refusal(() => expired.when({ kind: 'complete', now: at(1900), transactionId: null })).message).toBe('Checkout session expired');
    expect(expired.state()?.status).toBe('EXPIRED');
  });

  it('given a completed session, when the deadline passes: it stays completed', () => {
    expect(given(created, completedAt(10)).when({ kind: 'expire', now: at(1800) })).toEqual([]);
  });

  it('given a test session expired early (sandbox), when paid before its original deadline: refused as expired', () => {
    // The status refuses it: the deadline alone would still let it through.
    const error = refusal(() => given(created, expiredAt(60)).when({ kind: 'complete', now: at(120), transactionId: 'txn_1' }));
    expect(error).toMatchObject({ code: ErrorCode.Conflict, message: 'Checkout session expired' });
  });

  describe('given a session whose deadline was extended', () => {
    const extendedTo = (seconds: number): CheckoutSessionEvent => ({
      type: CheckoutSessionEventType.ExpiryExtended,
      schema_version: 1,
      data: { session_id: 'cs1', expires_at: at(seconds).toISOString(), extended_at: at(600).toISOString() },
    });

    it('when the original deadline passes: not expired yet; at the new one: expired', () => {
      expect(given(created, extendedTo(2400)).when({ kind: 'expire', now: at(1800) })).toEqual([]);
      expect(given(created, extendedTo(2400)).when({ kind: 'expire', now: at(2400) }).map((event) => event.type)).toEqual([
        CheckoutSessionEventType.Expired,
        MerchantEventType.CheckoutSessionExpired,
      ]);
    });

    it('when paid after the original deadline but before the new one: completed', () => {
      const events = given(created, extendedTo(2400)).when({ kind: 'complete', now: at(2000), transactionId: 'txn_1' });
      expect(events.map((event) => event.type)).toEqual([CheckoutSessionEventType.Completed, MerchantEventType.CheckoutSessionCompleted]);
    });
  });

  it('given a test session expired early, when extended before its original deadline: refused as expired', () => {
    const error = refusal(() => given(created, expiredAt(60)).when({ kind: 'extend', now: at(120), ttlSeconds: 1800 }));
    expect(error).toMatchObject({ code: ErrorCode.Conflict, message: 'Checkout session expired' });
  });

  it('given an open live session, when extended: refused, its deadline stays', () => {
    const live: CheckoutSessionEvent = { ...created, data: { ...created.data, livemode: true } } as CheckoutSessionEvent;
    const error = refusal(() => given(live).when({ kind: 'extend', now: at(60), ttlSeconds: 1800 }));
    expect(error).toMatchObject({ code: ErrorCode.Forbidden, message: 'Only test sessions can be extended' });
  });
});
