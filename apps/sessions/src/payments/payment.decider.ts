import {
  type Aggregate,
  DomainError,
  ErrorCode,
  type MerchantEvent,
  type MerchantEventDataV1,
  MerchantEventType,
  PAYMENT_TRANSITION_RULE,
  type PaymentEvent,
  PaymentEventType,
  atSchemaVersion1,
  type PaymentRecordedV1,
  type PaymentStatus,
  transactionStreamId,
  type VerificationMethod,
} from '@pp/contracts';

/*
 * The payment (transaction) aggregate as a pure decider, exactly PRODUCT-RULES §3.2:
 *
 *   (none)                 --record-->  CONFIRMED | FAILED | REQUIRES_MANUAL_REVIEW
 *   REQUIRES_MANUAL_REVIEW --verify-->  CONFIRMED (MANUAL_ADMIN)      verify on CONFIRMED: nothing
 *   CONFIRMED              --refund-->  REFUNDED                      refund on REFUNDED: nothing; of amount 0: refused
 *
 * Every other transition is refused with PaymentTransitionRefused. Each fact
 * is appended with its merchant-visible twin (payment.confirmed, …).
 */

export interface Payment extends Omit<PaymentRecordedV1, 'payment_id' | 'status'> {
  id: string;
  status: PaymentStatus;
  verification_method: VerificationMethod;
  verified_by: string | null;
}

export type PaymentState = Payment | null;

export type RecordablePayment = Omit<PaymentRecordedV1, 'created_at'>;

export type PaymentCommand =
  | { kind: 'record'; payment: RecordablePayment; now: Date }
  | { kind: 'verify'; verifiedBy: string; now: Date }
  | { kind: 'refund'; refundId: string; now: Date };

/** A transition PRODUCT-RULES §3.2 does not allow; CONFLICT with details.rule = 'payment_transition'. */
export class PaymentTransitionRefused extends DomainError {
  constructor(from: PaymentStatus | null, command: PaymentCommand['kind'], message: string) {
    super(ErrorCode.Conflict, message, { rule: PAYMENT_TRANSITION_RULE, from, command });
  }
}

const MERCHANT_EVENT_OF: Record<PaymentRecordedV1['status'], MerchantEventType> = {
  CONFIRMED: MerchantEventType.PaymentConfirmed,
  FAILED: MerchantEventType.PaymentFailed,
  REQUIRES_MANUAL_REVIEW: MerchantEventType.PaymentPendingReview,
};

export function decide(state: PaymentState, command: PaymentCommand): PaymentEvent[] {
  if (command.kind === 'record') {
    if (state) throw new PaymentTransitionRefused(state.status, 'record', 'Payment already recorded');
    const recorded = atSchemaVersion1({ type: PaymentEventType.Recorded, data: { ...command.payment, created_at: command.now.toISOString() } });
    const payment = evolve(null, recorded) as Payment;
    return [recorded, merchantEvent(MERCHANT_EVENT_OF[recorded.data.status], payment)];
  }
  if (!state) throw new DomainError(ErrorCode.NotFound, 'Payment not found');

  if (command.kind === 'verify') {
    if (state.status === 'CONFIRMED') return [];
    if (state.status !== 'REQUIRES_MANUAL_REVIEW') {
      throw new PaymentTransitionRefused(state.status, 'verify', `A ${state.status} payment cannot be verified`);
    }
    const verified = atSchemaVersion1({
      type: PaymentEventType.Verified,
      data: { payment_id: state.id, verified_by: command.verifiedBy, verified_at: command.now.toISOString() },
    });
    const confirmed = evolve(state, verified) as Payment;
    return [verified, merchantEvent(MerchantEventType.PaymentConfirmed, confirmed)];
  }

  if (state.status === 'REFUNDED') return [];
  if (state.status !== 'CONFIRMED') throw new PaymentTransitionRefused(state.status, 'refund', `A ${state.status} payment cannot be refunded`);
  // A notice whose amount could not be read is recorded at 0 for review; verified, it is CONFIRMED with nothing to give back.
  if (state.amount <= 0) throw new PaymentTransitionRefused(state.status, 'refund', 'A payment of no amount cannot be refunded');
  const refunded = atSchemaVersion1({
    type: PaymentEventType.Refunded,
    data: { payment_id: state.id, refund_id: command.refundId, refunded_at: command.now.toISOString() },
  });
  const after = evolve(state, refunded) as Payment;
  return [refunded, merchantEvent(MerchantEventType.PaymentRefunded, after)];
}

export function evolve(state: PaymentState, event: PaymentEvent): PaymentState {
  switch (event.type) {
    case PaymentEventType.Recorded: {
      const { payment_id, ...recorded } = event.data;
      return { ...recorded, id: payment_id, verified_by: null };
    }
    case PaymentEventType.Verified:
      return state && { ...state, status: 'CONFIRMED', verification_method: 'MANUAL_ADMIN', verified_by: event.data.verified_by };
    case PaymentEventType.Refunded:
      return state && { ...state, status: 'REFUNDED' };
    default:
      return state; // merchant-visible events restate facts
  }
}

export const fold = (events: readonly PaymentEvent[], initial: PaymentState = null): PaymentState => events.reduce(evolve, initial);

/** The payment aggregate as the runtime loads it (libs/platform aggregate/). */
export const paymentAggregate: Aggregate<PaymentState, PaymentEvent> = { streamId: transactionStreamId, initial: null, evolve };

/** PRODUCT-RULES §6 data, plus the ids; payments with no session show their transfer memo as reference. */
function merchantEvent(type: MerchantEventType, payment: Payment): MerchantEvent {
  const data: MerchantEventDataV1 = {
    reference: payment.session_reference ?? payment.etransfer_ref ?? '',
    amount: payment.amount,
    status: payment.status,
    metadata: payment.session_metadata,
    session_id: payment.session_id,
    payment_id: payment.id,
    ...(payment.status === 'REQUIRES_MANUAL_REVIEW' ? { review_reasons: payment.review_reasons } : {}),
  };
  return { type, schema_version: 1, data };
}
