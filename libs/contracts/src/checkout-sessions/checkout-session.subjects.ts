import { IsObject, IsString, Length, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { MerchantScope } from '../merchant-scope';
import { IdempotencyToken } from '../idempotency';
import type { CreateCheckoutSessionBody } from './create-checkout-session.body';
import type { CheckoutPreviewView, OpenCheckoutPreviewCommand } from './checkout-preview';
import type { CheckoutSessionCreatedView, CheckoutSessionView } from './checkout-session.views';

/**
 * What a session id looks like (a CUID2). Anything else names no session and
 * is answered as an unknown id is, 404 'Checkout session not found', before it
 * becomes a stream name the ledger would refuse in its own words.
 */
export const CHECKOUT_SESSION_ID_PATTERN = /^[a-z0-9]{1,64}$/;

export class CreateCheckoutSessionCommand extends MerchantScope {
  /**
   * Validated once, at the edge, against its class by the gateway (the only caller); the sessions service adds
   * the rule that depends on the mode (return URLs), rather than checking every field a second time.
   */
  @IsObject({ message: 'body must be an object' })
  body!: CreateCheckoutSessionBody;

  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency!: IdempotencyToken;
}

export class GetCheckoutSessionQuery extends MerchantScope {
  @IsString()
  @Length(1, 64)
  session_id!: string;
}

/** Body of POST /v1/sandbox/expire-session (named like simulate-payment's). */
export class ExpireSessionBody {
  @IsString({ message: 'sessionId must be a string' })
  @Length(1, 64, { message: 'sessionId must be 1 to 64 characters' })
  sessionId!: string;
}

/** `sessions.sandbox-expire.v1`: POST /v1/sandbox/expire-session, test sessions only. */
export class ExpireTestSessionCommand extends MerchantScope {
  @IsString()
  @Length(1, 64)
  session_id!: string;
}

/** Served by the sessions service. */
export interface CheckoutSessionSubjects {
  /** Creates a session exactly once per idempotency key; a replay answers the original session. Errors: VALIDATION_FAILED, CONFLICT ('Reference already exists'). */
  'sessions.create.v1': { request: CreateCheckoutSessionCommand; reply: CheckoutSessionCreatedView & { replayed: boolean } };
  /** NOT_FOUND 'Checkout session not found' for unknown ids and for another merchant's or mode's session. */
  'sessions.get.v1': { request: GetCheckoutSessionQuery; reply: CheckoutSessionView };
  /**
   * Expires a PENDING test session now, with its checkout.session.expired (the
   * sandbox's way to produce that event). A session no longer PENDING answers
   * as is. Errors: NOT_FOUND, FORBIDDEN for a live session.
   */
  'sessions.sandbox-expire.v1': { request: ExpireTestSessionCommand; reply: CheckoutSessionView };
  /**
   * The merchant's preview checkout (test mode): its PENDING preview session gets a deadline one session
   * lifetime from now (session.expiry_extended); once that session is completed or expired, a new one
   * becomes the preview session. Concurrent opens end on one session.
   */
  'sessions.preview.v1': { request: OpenCheckoutPreviewCommand; reply: CheckoutPreviewView };
}
