import type { MerchantEvent } from '../ledger/merchant-events';
import type { Event } from '../ledger/stored-event';
import type { PaymentStatus, VerificationMethod } from './payment.views';

/**
 * Facts of the payment (transaction) aggregate, stored by the ledger in the
 * stream `transaction-<txn id>`. They are named `transaction.*` so they never
 * collide with the merchant-visible `payment.*` events appended beside them.
 * Stored for ever: do not rename a type; change a shape only with a new
 * schema version.
 */
export enum PaymentEventType {
  Recorded = 'transaction.recorded',
  Verified = 'transaction.verified',
  Refunded = 'transaction.refunded',
}

export const TRANSACTION_STREAM = 'transaction';

/** `details.rule` of the CONFLICT a refused payment transition gets (PRODUCT-RULES §3.2 allows no other). */
export const PAYMENT_TRANSITION_RULE = 'payment_transition';

export const transactionStreamId = (transactionId: string): string => `${TRANSACTION_STREAM}-${transactionId}`;

/** Where a payment came from. */
export type PaymentSource = 'simulator' | 'email';

/** A transfer was received (or simulated) and judged: its first status is CONFIRMED, FAILED or REQUIRES_MANUAL_REVIEW. */
export interface PaymentRecordedV1 {
  payment_id: string;
  merchant_id: string;
  livemode: boolean;
  /** The session it pays, or null when no session of this merchant and mode matched (unknown memo, test session). */
  session_id: string | null;
  /** The session's reference, kept so the read model can search it and events can show it. */
  session_reference: string | null;
  session_metadata: Record<string, unknown> | null;
  etransfer_ref: string | null;
  amount: number;
  sender_name: string;
  sender_email: string | null;
  comment: string | null;
  status: Extract<PaymentStatus, 'CONFIRMED' | 'FAILED' | 'REQUIRES_MANUAL_REVIEW'>;
  verification_method: VerificationMethod;
  /** Machine-readable reasons for REQUIRES_MANUAL_REVIEW (ReviewReason, then the ingest's authentication and parse reasons); empty otherwise. */
  review_reasons: string[];
  source: PaymentSource;
  /** The ingested e-mail (em_…) for source email. */
  email_id: string | null;
  /** The bank's reference number of the transfer, when known. */
  reference_number: string | null;
  created_at: string;
}

/** A merchant administrator confirmed a payment that needed review. */
export interface PaymentVerifiedV1 {
  payment_id: string;
  verified_by: string;
  verified_at: string;
}

/** The payment's full refund completed. */
export interface PaymentRefundedV1 {
  payment_id: string;
  refund_id: string;
  refunded_at: string;
}

/** The facts of a payment's stream. */
export type PaymentFact =
  | Event<PaymentEventType.Recorded, PaymentRecordedV1>
  | Event<PaymentEventType.Verified, PaymentVerifiedV1>
  | Event<PaymentEventType.Refunded, PaymentRefundedV1>;

/** Everything a payment's stream holds: its facts and their merchant-visible twins. */
export type PaymentEvent = PaymentFact | MerchantEvent;
