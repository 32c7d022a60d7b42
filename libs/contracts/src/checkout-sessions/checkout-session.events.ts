/**
 * Facts of the checkout-session aggregate, stored by the ledger in the stream
 * `checkout_session-<session id>`. Types and shapes are stored for ever: do
 * not rename a type; change a shape only with a new schema version.
 */
export enum CheckoutSessionEventType {
  Created = 'session.created',
  Completed = 'session.completed',
  Expired = 'session.expired',
}

export const CHECKOUT_SESSION_STREAM = 'checkout_session';

/** `details.rule` of the CONFLICT a create gets when its memo is taken: draw another memo and retry. */
export const MEMO_TAKEN_RULE = 'memo_taken';

export const checkoutSessionStreamId = (sessionId: string): string => `${CHECKOUT_SESSION_STREAM}-${sessionId}`;

export interface SessionCreatedV1 {
  session_id: string;
  merchant_id: string;
  livemode: boolean;
  amount: number;
  currency: 'CAD';
  reference: string;
  memo: string;
  client_secret: string;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, unknown> | null;
  created_at: string;
  expires_at: string;
}

export interface SessionCompletedV1 {
  session_id: string;
  completed_at: string;
  /** The payment that completed it, when known. */
  transaction_id: string | null;
}

export interface SessionExpiredV1 {
  session_id: string;
  expired_at: string;
}
