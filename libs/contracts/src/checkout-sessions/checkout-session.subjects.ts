import type { IdempotencyToken, MerchantScope } from '../merchant-scope';
import type { CreateCheckoutSessionBody } from './create-checkout-session.body';
import type { CheckoutSessionCreatedView, CheckoutSessionView } from './checkout-session.views';

export interface CreateCheckoutSessionCommand extends MerchantScope {
  body: CreateCheckoutSessionBody;
  idempotency: IdempotencyToken;
}

export interface GetCheckoutSessionQuery extends MerchantScope {
  session_id: string;
}

/** Served by the sessions service. */
export interface CheckoutSessionSubjects {
  /** Creates a session exactly once per idempotency key; a replay answers the original session. Errors: VALIDATION_FAILED, CONFLICT ('Reference already exists'). */
  'sessions.create.v1': { request: CreateCheckoutSessionCommand; reply: CheckoutSessionCreatedView & { replayed: boolean } };
  /** NOT_FOUND 'Checkout session not found' for unknown ids and for another merchant's or mode's session. */
  'sessions.get.v1': { request: GetCheckoutSessionQuery; reply: CheckoutSessionView };
}
