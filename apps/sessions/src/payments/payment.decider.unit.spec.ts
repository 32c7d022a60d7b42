import { ErrorCode, MerchantEventType, PAYMENT_TRANSITION_RULE, type PaymentEvent, PaymentEventType } from '@pp/contracts';
import { deciderSpec, refusalOf } from '@pp/testing';
import { decide, fold, paymentAggregate, type PaymentCommand, type RecordablePayment } from './payment.decider';

const T0 = new Date('2026-11-22T01:00:00.000Z');

const payment = (overrides: Partial<RecordablePayment> = {}): RecordablePayment => ({
  payment_id: 'txn_1',
  merchant_id: 'mer_1',
  livemode: true,
  session_id: 'cs1',
  session_reference: 'order-1',
  session_metadata: { cart: '42' },
  etransfer_ref: 'PP-7K3M9Q',
  amount: 2500,
  sender_name: 'Jo Payer',
  sender_email: null,
  comment: 'PP-7K3M9Q',
  status: 'CONFIRMED',
  verification_method: 'AUTO_EMAIL',
  review_reasons: [],
  source: 'email',
  email_id: 'em_1',
  reference_number: 'C1AbC',
  ...overrides,
});

const record = (overrides: Partial<RecordablePayment> = {}): PaymentCommand => ({ kind: 'record', now: T0, payment: payment(overrides) });
const verify: PaymentCommand = { kind: 'verify', verifiedBy: 'usr_admin', now: T0 };
const refund: PaymentCommand = { kind: 'refund', refundId: 'rf_1', now: T0 };

/** The history events: the facts a payment's stream holds (their merchant-visible twins change no state). */
const recorded = (overrides: Partial<RecordablePayment> = {}): PaymentEvent => ({
  type: PaymentEventType.Recorded,
  schema_version: 1,
  data: { ...payment(overrides), created_at: T0.toISOString() },
});
const verified: PaymentEvent = {
  type: PaymentEventType.Verified,
  schema_version: 1,
  data: { payment_id: 'txn_1', verified_by: 'usr_admin', verified_at: T0.toISOString() },
};
const refunded: PaymentEvent = {
  type: PaymentEventType.Refunded,
  schema_version: 1,
  data: { payment_id: 'txn_1', refund_id: 'rf_1', refunded_at: T0.toISOString() },
};

const { given } = deciderSpec({ ...paymentAggregate, decide });

const refusal = refusalOf;

const types = (events: PaymentEvent[]) => events.map((event) => event.type);

describe('payment decider (PRODUCT-RULES §3.2)', () => {
  it.each([
    ['CONFIRMED', MerchantEventType.PaymentConfirmed],
    ['FAILED', MerchantEventType.PaymentFailed],
    ['REQUIRES_MANUAL_REVIEW', MerchantEventType.PaymentPendingReview],
  ] as const)('given nothing, when recorded %s: the fact and its merchant-visible twin', (status, merchantType) => {
    const events = given().when(record({ status, review_reasons: status === 'REQUIRES_MANUAL_REVIEW' ? ['wrong_amount'] : [] }));
    expect(types(events)).toEqual([PaymentEventType.Recorded, merchantType]);
    expect(events[0].data).toMatchObject({ payment_id: 'txn_1', status, created_at: '2026-11-22T01:00:00.000Z' });
    expect(events[1].data).toEqual({
      reference: 'order-1',
      amount: 2500,
      status,
      metadata: { cart: '42' },
      session_id: 'cs1',
      payment_id: 'txn_1',
      ...(status === 'REQUIRES_MANUAL_REVIEW' ? { review_reasons: ['wrong_amount'] } : {}),
    });
    expect(fold(events)).toMatchObject({ id: 'txn_1', status, verified_by: null });
  });

  it('given nothing, when a payment without a session is recorded: the event shows its memo as reference', () => {
    const events = given().when(record({ session_id: null, session_reference: null, session_metadata: null, status: 'REQUIRES_MANUAL_REVIEW' }));
    expect(events[1].data).toMatchObject({ reference: 'PP-7K3M9Q', session_id: null, metadata: null });
  });

  it('given a recorded payment, when recorded again: refused as a transition', () => {
    const error = refusal(() => given(recorded()).when(record()));
    expect(error).toMatchObject({ code: ErrorCode.Conflict, details: { rule: PAYMENT_TRANSITION_RULE, from: 'CONFIRMED', command: 'record' } });
  });

  it('given a payment needing review, when verified: CONFIRMED by MANUAL_ADMIN with payment.confirmed, recording who', () => {
    const history = given(recorded({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['session_expired'] }));
    const events = history.when(verify);
    expect(types(events)).toEqual([PaymentEventType.Verified, MerchantEventType.PaymentConfirmed]);
    expect(events[1].data).toMatchObject({ status: 'CONFIRMED', payment_id: 'txn_1' });
    expect(fold(events, history.state())).toMatchObject({ status: 'CONFIRMED', verification_method: 'MANUAL_ADMIN', verified_by: 'usr_admin' });
  });

  it('given a verified payment, when verified again: nothing', () => {
    expect(given(recorded({ status: 'REQUIRES_MANUAL_REVIEW' }), verified).when(verify)).toEqual([]);
    expect(given(recorded()).when(verify)).toEqual([]);
  });

  it.each([['FAILED'], ['REFUNDED']] as const)('given a %s payment, when verified: refused', (status) => {
    const history = status === 'FAILED' ? given(recorded({ status: 'FAILED' })) : given(recorded(), refunded);
    expect(refusal(() => history.when(verify))).toMatchObject({ code: ErrorCode.Conflict, details: { rule: PAYMENT_TRANSITION_RULE, from: status } });
  });

  it('given a confirmed payment, when refunded: REFUNDED with exactly one payment.refunded; again: nothing', () => {
    const events = given(recorded()).when(refund);
    expect(types(events)).toEqual([PaymentEventType.Refunded, MerchantEventType.PaymentRefunded]);
    expect(given(recorded(), refunded).when(refund)).toEqual([]);
    expect(given(recorded(), refunded).state()?.status).toBe('REFUNDED');
  });

  it.each([['FAILED'], ['REQUIRES_MANUAL_REVIEW']] as const)('given a %s payment, when refunded: refused', (status) => {
    expect(refusal(() => given(recorded({ status })).when(refund)).details).toMatchObject({ rule: PAYMENT_TRANSITION_RULE, from: status });
  });

  it('given a payment recorded at 0 (its amount unread) and verified, when refunded: refused, with nothing to give back', () => {
    const history = given(recorded({ status: 'REQUIRES_MANUAL_REVIEW', amount: 0 }), verified);
    expect(history.state()?.status).toBe('CONFIRMED');
    expect(refusal(() => history.when(refund))).toMatchObject({
      code: ErrorCode.Conflict,
      message: 'A payment of no amount cannot be refunded',
      details: { rule: PAYMENT_TRANSITION_RULE, from: 'CONFIRMED' },
    });
  });

  it('given nothing, when verified or refunded: not found', () => {
    expect(refusal(() => given().when(verify)).code).toBe(ErrorCode.NotFound);
    expect(refusal(() => given().when(refund)).code).toBe(ErrorCode.NotFound);
  });
});
