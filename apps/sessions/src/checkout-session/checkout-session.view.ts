import type { CheckoutSessionCreatedView, CheckoutSessionView } from '@pp/contracts';
import type { CheckoutSession } from './checkout-session.decider';

/** Hosted checkout page of a session (PRODUCT-RULES §2.1). */
export const checkoutUrl = (base: string, sessionId: string): string => `${base.replace(/\/+$/, '')}/sessions/${sessionId}`;

export const createdView = (session: CheckoutSession, checkoutUrlBase: string): CheckoutSessionCreatedView => ({
  id: session.id,
  checkout_url: checkoutUrl(checkoutUrlBase, session.id),
  client_secret: session.client_secret,
  status: session.status,
  livemode: session.livemode,
  reference: session.reference,
  memo: session.memo,
  expires_at: session.expires_at,
});

export const sessionView = (session: CheckoutSession): CheckoutSessionView => ({
  id: session.id,
  amount: session.amount,
  currency: 'CAD',
  reference: session.reference,
  memo: session.memo,
  status: session.status,
  livemode: session.livemode,
  client_secret: session.client_secret,
  success_url: session.success_url,
  cancel_url: session.cancel_url,
  metadata: session.metadata,
  expires_at: session.expires_at,
  created_at: session.created_at,
});
