import {
  DomainError,
  ErrorCode,
  type MerchantEventDataV1,
  MerchantEventType,
  PAYMENT_TRANSITION_RULE,
  PaymentEventType,
  type TransactionRecordedV1,
  type TransactionRefundedV1,
  type TransactionStatus,
  type TransactionVerifiedV1,
  type VerificationMethod,
} from '@pp/contracts';
import type { DecidedEvent, EventToFold } from '../checkout-session/checkout-session.decider';

/*
 * The payment (transaction) aggregate as a pure decider, exactly SPEC §3.2:
 *
 *   (none)                 --record-->  CONFIRMED | FAILED | REQUIRES_MANUAL_REVIEW
 *   REQUIRES_MANUAL_REVIEW --verify-->  CONFIRMED (MANUAL_ADMIN)      verify on CONFIRMED: nothing
 *   CONFIRMED              --refund-->  REFUNDED                      refund on REFUNDED: nothing
 *
 * Every other transition is refused with PaymentTransitionRefused. Each fact
 * is appended with its merchant-visible twin (payment.confirmed, …).
 */

export interface Payment extends Omit<TransactionRecordedV1, 'payment_id' | 'status'> {
  id: string;
  status: TransactionStatus;
  verification_method: VerificationMethod;
  verified_by: string | null;
}

export type PaymentState = Payment | null;

export type RecordablePayment = Omit<TransactionRecordedV1, 'created_at'>;

export type PaymentCommand =
  | { kind: 'record'; payment: RecordablePayment; now: Date }
  | { kind: 'verify'; verifiedBy: string; now: Date }
  | { kind: 'refund'; refundId: string; now: Date };

/** A transition SPEC §3.2 does not allow; CONFLICT with details.rule = 'payment_transition'. */
export class PaymentTransitionRefused extends DomainError {
  constructor(from: TransactionStatus | null, command: PaymentCommand['kind'], message: string) {
    super(ErrorCode.Conflict, message, { rule: PAYMENT_TRANSITION_RULE, from, command });
  }
}

const MERCHANT_EVENT_OF: Record<TransactionRecordedV1['status'], MerchantEventType> = {
  CONFIRMED: MerchantEventType.PaymentConfirmed,
  FAILED: MerchantEventType.PaymentFailed,
  REQUIRES_MANUAL_REVIEW: MerchantEventType.PaymentPendingReview,
};

export function decide(state: PaymentState, command: PaymentCommand): DecidedEvent[] {
  if (command.kind === 'record') {
    if (state) throw new PaymentTransitionRefused(state.status, 'record', 'Payment already recorded');
    const recorded: TransactionRecordedV1 = { ...command.payment, created_at: command.now.toISOString() };
    const payment = evolve(null, { type: PaymentEventType.Recorded, data: { ...recorded } }) as Payment;
    return [fact(PaymentEventType.Recorded, recorded), merchantEvent(MERCHANT_EVENT_OF[recorded.status], payment)];
  }
  if (!state) throw new DomainError(ErrorCode.NotFound, 'Payment not found');

  if (command.kind === 'verify') {
    if (state.status === 'CONFIRMED') return [];
    if (state.status !== 'REQUIRES_MANUAL_REVIEW') {
      throw new PaymentTransitionRefused(state.status, 'verify', `A ${state.status} payment cannot be verified`);
    }
    const verified: TransactionVerifiedV1 = { payment_id: state.id, verified_by: command.verifiedBy, verified_at: command.now.toISOString() };
    const confirmed = evolve(state, { type: PaymentEventType.Verified, data: { ...verified } }) as Payment;
    return [fact(PaymentEventType.Verified, verified), merchantEvent(MerchantEventType.PaymentConfirmed, confirmed)];
  }

  if (state.status === 'REFUNDED') return [];
  if (state.status !== 'CONFIRMED') throw new PaymentTransitionRefused(state.status, 'refund', `A ${state.status} payment cannot be refunded`);
  const refunded: TransactionRefundedV1 = { payment_id: state.id, refund_id: command.refundId, refunded_at: command.now.toISOString() };
  const after = evolve(state, { type: PaymentEventType.Refunded, data: { ...refunded } }) as Payment;
  return [fact(PaymentEventType.Refunded, refunded), merchantEvent(MerchantEventType.PaymentRefunded, after)];
}

export function evolve(state: PaymentState, event: EventToFold): PaymentState {
  switch (event.type) {
    case PaymentEventType.Recorded: {
      const { payment_id, ...recorded } = event.data as unknown as TransactionRecordedV1;
      return { ...recorded, id: payment_id, verified_by: null };
    }
    case PaymentEventType.Verified: {
      const verified = event.data as unknown as TransactionVerifiedV1;
      return state && { ...state, status: 'CONFIRMED', verification_method: 'MANUAL_ADMIN', verified_by: verified.verified_by };
    }
    case PaymentEventType.Refunded:
      return state && { ...state, status: 'REFUNDED' };
    default:
      return state; // merchant-visible events restate facts
  }
}

export const fold = (events: readonly EventToFold[], initial: PaymentState = null): PaymentState => events.reduce(evolve, initial);

const fact = (type: PaymentEventType, data: TransactionRecordedV1 | TransactionVerifiedV1 | TransactionRefundedV1): DecidedEvent => ({
  type,
  schema_version: 1,
  data: { ...data },
});

/** SPEC §6 data, plus the ids; payments with no session show their transfer memo as reference. */
function merchantEvent(type: MerchantEventType, payment: Payment): DecidedEvent {
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
