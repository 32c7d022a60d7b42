import { IsString, Length, Matches, MaxLength } from 'class-validator';
import type { Event } from '../ledger/stored-event';
import type { CheckoutSessionView } from './checkout-session.views';

/*
 * The dashboard's preview checkout (docs/ARCHITECTURE.md "Dashboard"): one
 * stable test session per merchant, recorded in the stream
 * `checkout_preview-<merchant id>`. Internal facts: no webhook carries them.
 */
export enum CheckoutPreviewEventType {
  /** A new test session became the merchant's preview session (the previous one was completed or expired). */
  SessionChosen = 'checkout_preview.session_chosen',
}

export const CHECKOUT_PREVIEW_STREAM = 'checkout_preview';

export const checkoutPreviewStreamId = (merchantId: string): string => `${CHECKOUT_PREVIEW_STREAM}-${merchantId}`;

export interface PreviewSessionChosenV1 {
  merchant_id: string;
  session_id: string;
  chosen_at: string;
}

export type CheckoutPreviewEvent = Event<CheckoutPreviewEventType.SessionChosen, PreviewSessionChosenV1>;

/** `sessions.preview.v1`: open the merchant's preview checkout (test mode only), returning to `return_url`. */
export class OpenCheckoutPreviewCommand {
  @IsString()
  @Length(1, 64)
  merchant_id!: string;

  /** Where the hosted page's success and cancel links lead (the dashboard's Developers page); used when a new session is made. */
  @IsString()
  @MaxLength(2048)
  @Matches(/^https?:\/\/\S+$/, { message: 'return_url must be an http(s) URL' })
  return_url!: string;
}

export interface CheckoutPreviewView {
  /** created: a new session became the preview one; extended: the PENDING one got a later deadline. */
  outcome: 'created' | 'extended';
  checkout_url: string;
  session: CheckoutSessionView;
}
