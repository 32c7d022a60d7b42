import type { PayerSessionView } from '@pp/contracts';
import { type CheckoutSession, statusAt } from '../checkout-session/checkout-session.decider';

/** The payer's view of a session at `now`: a PENDING session past its deadline already reads as EXPIRED. */
export const payerSessionView = (session: CheckoutSession, now: Date): PayerSessionView => ({
  id: session.id,
  merchant_id: session.merchant_id,
  livemode: session.livemode,
  status: statusAt(session, now),
  amount: session.amount,
  currency: 'CAD',
  memo: session.memo,
  success_url: session.success_url,
  cancel_url: session.cancel_url,
  expires_at: session.expires_at,
});
