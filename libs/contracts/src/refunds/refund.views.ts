/**
 * Stages of a refund (PRODUCT-RULES §2.5, §3.3). Wire values: do not rename.
 *
 *   REQUESTED --approve--> APPROVED --mark-sent--> SENT --complete--> COMPLETED
 *       |                     |                      |
 *       +--reject--> REJECTED |                      +--fail--> FAILED
 *       |               ^     |
 *       |               +-----+ reject
 *       +--cancel--> CANCELLED
 *
 * The merchant cancels only until approval; after it, only the operator's
 * reject stops a refund not yet sent (apps/refunds refund.decider.ts says why).
 * REJECTED, COMPLETED, FAILED and CANCELLED are terminal. Only COMPLETED
 * refunds the payment; after REJECTED, FAILED or CANCELLED the payment is
 * still CONFIRMED and a new refund may be requested.
 */
export const REFUND_STATUSES = ['REQUESTED', 'APPROVED', 'REJECTED', 'SENT', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Stages that hold the payment's one refund: a new request is refused while one of these exists. */
export const REFUND_HOLDING_STATUSES: readonly RefundStatus[] = ['REQUESTED', 'APPROVED', 'SENT', 'COMPLETED'];

/** A refund as the API shows it. Always the payment's full amount, in CAD cents. */
export interface RefundView {
  id: string;
  payment_id: string;
  merchant_id: string;
  amount: number;
  status: RefundStatus;
  livemode: boolean;
  /** The API key id or the dashboard user who asked for it. */
  requested_by: string;
  reason: string | null;
  /** The bank's reference of the outbound e-transfer (live completion); null in test mode. */
  outbound_reference: string | null;
  /** What the operator checked before completing (live completion); null in test mode. */
  evidence_note: string | null;
  rejection_reason: string | null;
  /** Why the outbound transfer failed (FAILED). */
  failure_reason: string | null;
  created_at: string;
  requested_at: string;
  approved_at: string | null;
  rejected_at: string | null;
  sent_at: string | null;
  completed_at: string | null;
  failed_at: string | null;
  cancelled_at: string | null;
}
