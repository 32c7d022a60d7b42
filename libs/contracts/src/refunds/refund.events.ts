import type { Event } from '../ledger/stored-event';

/**
 * Facts of the refund aggregate, stored by the ledger in the stream
 * `refund-<rf id>` (owned by the refunds service). None is merchant-visible:
 * the merchant sees a completed refund as payment.refunded on the payment's
 * stream, appended in the same atomic append as refund.completed.
 * Stored for ever: do not rename a type; change a shape only with a new
 * schema version.
 */
export enum RefundEventType {
  Requested = 'refund.requested',
  Approved = 'refund.approved',
  Rejected = 'refund.rejected',
  Sent = 'refund.sent',
  Completed = 'refund.completed',
  Failed = 'refund.failed',
  Cancelled = 'refund.cancelled',
}

export const REFUND_STREAM = 'refund';

export const refundStreamId = (refundId: string): string => `${REFUND_STREAM}-${refundId}`;

/** `details.rule` of the CONFLICT when a payment already has an open or completed refund (unique index of the read model). */
export const REFUND_OPEN_RULE = 'refund_open';

/** `details.rule` of the CONFLICT when a live completion names an outbound reference that completed another refund. */
export const OUTBOUND_REFERENCE_USED_RULE = 'outbound_reference_used';

/** `details.rule` of the CONFLICT a refused stage change gets. */
export const REFUND_STAGE_RULE = 'refund_stage';

export interface RefundRequestedV1 {
  refund_id: string;
  payment_id: string;
  merchant_id: string;
  livemode: boolean;
  /** The payment's full amount, in cents. */
  amount: number;
  requested_by: string;
  reason: string | null;
  requested_at: string;
}

export interface RefundApprovedV1 {
  refund_id: string;
  approved_by: string;
  approved_at: string;
}

export interface RefundRejectedV1 {
  refund_id: string;
  rejected_by: string;
  rejection_reason: string;
  rejected_at: string;
}

export interface RefundSentV1 {
  refund_id: string;
  sent_by: string;
  sent_at: string;
}

export interface RefundCompletedV1 {
  refund_id: string;
  payment_id: string;
  completed_by: string;
  /** Required in live mode; null in test mode. */
  outbound_reference: string | null;
  evidence_note: string | null;
  completed_at: string;
}

export interface RefundFailedV1 {
  refund_id: string;
  failed_by: string;
  failure_reason: string;
  failed_at: string;
}

export interface RefundCancelledV1 {
  refund_id: string;
  cancelled_by: string;
  cancelled_at: string;
}

/** Everything a refund's stream holds (none of it merchant-visible). */
export type RefundEvent =
  | Event<RefundEventType.Requested, RefundRequestedV1>
  | Event<RefundEventType.Approved, RefundApprovedV1>
  | Event<RefundEventType.Rejected, RefundRejectedV1>
  | Event<RefundEventType.Sent, RefundSentV1>
  | Event<RefundEventType.Completed, RefundCompletedV1>
  | Event<RefundEventType.Failed, RefundFailedV1>
  | Event<RefundEventType.Cancelled, RefundCancelledV1>;
