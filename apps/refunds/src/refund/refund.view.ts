import type { RefundView } from '@pp/contracts';
import type { Refund } from './refund.decider';

/** The refund as the API shows it (the ledger's read model answers the same shape for reads). */
export const refundView = (refund: Refund): RefundView => ({
  id: refund.id,
  payment_id: refund.payment_id,
  merchant_id: refund.merchant_id,
  amount: refund.amount,
  status: refund.status,
  livemode: refund.livemode,
  requested_by: refund.requested_by,
  reason: refund.reason,
  outbound_reference: refund.outbound_reference,
  evidence_note: refund.evidence_note,
  rejection_reason: refund.rejection_reason,
  failure_reason: refund.failure_reason,
  created_at: refund.requested_at,
  requested_at: refund.requested_at,
  approved_at: refund.approved_at,
  rejected_at: refund.rejected_at,
  sent_at: refund.sent_at,
  completed_at: refund.completed_at,
  failed_at: refund.failed_at,
  cancelled_at: refund.cancelled_at,
});
