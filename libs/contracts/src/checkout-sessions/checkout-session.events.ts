import type { MerchantEvent } from '../ledger/merchant-events';
import type { Event } from '../ledger/stored-event';

/**
 * Facts of the checkout-session aggregate, stored by the ledger in the stream
 * `checkout_session-<session id>`. Types and shapes are stored for ever: do
 * not rename a type; change a shape only with a new schema version.
 */
export enum CheckoutSessionEventType {
  Created = 'session.created',
  Completed = 'session.completed',
  Expired = 'session.expired',
  /** Internal (no webhook): the deadline moved later, e.g. the dashboard's preview checkout reopened its session. */
  ExpiryExtended = 'session.expiry_extended',
}

export const CHECKOUT_SESSION_STREAM = 'checkout_session';

/** `details.rule` of the CONFLICT a create gets when its memo is taken: draw another memo and retry. */
export const MEMO_TAKEN_RULE = 'memo_taken';

/** `details.rule` of the CONFLICT a payment or completion gets on a session past its deadline (or EXPIRED). */
export const SESSION_EXPIRED_RULE = 'session_expired';

/** `details.rule` of the CONFLICT a payment gets on a session another payment already completed. */
export const SESSION_COMPLETED_RULE = 'session_completed';

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

export interface SessionExpiryExtendedV1 {
  session_id: string;
  /** The new deadline (later than the previous one). */
  expires_at: string;
  extended_at: string;
}

/** The facts of a session's stream. */
export type CheckoutSessionFact =
  | Event<CheckoutSessionEventType.Created, SessionCreatedV1>
  | Event<CheckoutSessionEventType.Completed, SessionCompletedV1>
  | Event<CheckoutSessionEventType.Expired, SessionExpiredV1>
  | Event<CheckoutSessionEventType.ExpiryExtended, SessionExpiryExtendedV1>;

/** Everything a session's stream holds: its facts and their merchant-visible twins. */
export type CheckoutSessionEvent = CheckoutSessionFact | MerchantEvent;
