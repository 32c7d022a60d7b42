import type { PaymentView } from '@pp/contracts';
import type { Payment } from './payment.decider';

export const transactionView = (payment: Payment): PaymentView => ({
  id: payment.id,
  etransfer_ref: payment.etransfer_ref,
  amount: payment.amount,
  sender_name: payment.sender_name,
  sender_email: payment.sender_email,
  comment: payment.comment,
  status: payment.status,
  verification_method: payment.verification_method,
  created_at: payment.created_at,
  session_id: payment.session_id,
  livemode: payment.livemode,
  review_reasons: payment.review_reasons,
  verified_by: payment.verified_by,
});
