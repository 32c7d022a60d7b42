import { type CheckoutSessionRef, ReviewReason, type TransferEvidence } from '@pp/contracts';
import { type CheckoutSession, isOpen } from '../checkout-session/checkout-session.decider';

/** Everything a live e-mail transfer is judged on: what the ingest established, and the session its memo names. */
export interface TransferFacts {
  merchant_id: string;
  /** Integer cents read from the notice (0 when unreadable). */
  amount: number;
  evidence: TransferEvidence;
  /** Whose session the memo names (any merchant, any mode), or undefined for no memo or nobody's memo. */
  memo_owner: CheckoutSessionRef | undefined;
  /** That session's state when it is a live session of this merchant (see payableSessionId), else null. */
  session: CheckoutSession | null;
  now: Date;
}

export type TransferMatch = { status: 'CONFIRMED'; review_reasons: [] } | { status: 'REQUIRES_MANUAL_REVIEW'; review_reasons: string[] };

/**
 * The session a transfer may pay and is linked to: a live session of the
 * same merchant. A test session is never linked (live data never points
 * into test mode), another merchant's never named.
 */
export const payableSessionId = (memoOwner: CheckoutSessionRef | undefined, merchantId: string): string | null =>
  memoOwner && memoOwner.merchant_id === merchantId && memoOwner.livemode ? memoOwner.session_id : null;

/**
 * Whether a live e-mail transfer confirms automatically (AUTO_EMAIL) or needs
 * manual review, and why (PRODUCT-RULES §3.2, docs/INGEST-FORMATS.md "Matching"). It
 * confirms only when every one of these holds, and no reason is recorded:
 * - the memo names a PENDING, unexpired live session of this merchant with the same amount;
 * - a trusted DKIM signature proves Interac sent the notice;
 * - the notice has exactly one To header with exactly one mailbox, covered by
 *   that signature, and that mailbox is the merchant's registered deposit
 *   address. Delivered-To, envelope data or other headers may have routed the
 *   notice to this merchant, but only the signed recipient can confirm it;
 * - the parser read a complete deposit notice.
 * Reasons are codes; nothing here reads message text.
 */
export function matchTransfer(facts: TransferFacts): TransferMatch {
  const reasons = [...new Set([...sessionReasons(facts), ...evidenceReasons(facts.evidence)])];
  return reasons.length === 0 ? { status: 'CONFIRMED', review_reasons: [] } : { status: 'REQUIRES_MANUAL_REVIEW', review_reasons: reasons };
}

function sessionReasons({ memo_owner, merchant_id, session, amount, now }: TransferFacts): string[] {
  if (memo_owner && memo_owner.merchant_id === merchant_id && !memo_owner.livemode) return [ReviewReason.TestSession];
  if (!session) return [ReviewReason.UnknownMemo];
  const reasons: string[] = [];
  if (session.status === 'COMPLETED') reasons.push(ReviewReason.SessionCompleted);
  else if (!isOpen(session, now)) reasons.push(ReviewReason.SessionExpired);
  // A notice of no amount (0: unreadable) or a negative one never pays, whatever the session holds.
  if (session.amount !== amount || !(amount > 0)) reasons.push(ReviewReason.WrongAmount);
  return reasons;
}

function evidenceReasons(evidence: TransferEvidence): string[] {
  // Without a trusted signature nothing in the notice is evidence, its recipient included: the authentication reasons say why.
  if (!evidence.authenticated) return [ReviewReason.UnauthenticatedSender, ...evidence.authentication_reasons, ...evidence.parse_reasons];
  return [...evidence.authentication_reasons, ...recipientReasons(evidence), ...evidence.parse_reasons];
}

function recipientReasons({ signed_recipient, recipient_reasons, deposit_address }: TransferEvidence): string[] {
  const reasons: string[] = [...recipient_reasons];
  if (signed_recipient === null || signed_recipient === undefined) {
    if (reasons.length === 0) reasons.push(ReviewReason.RecipientNotSigned); // no signed recipient, whatever the ingest said
  } else if (normalize(signed_recipient) !== normalize(deposit_address)) {
    reasons.push(ReviewReason.RecipientMismatch);
  }
  return reasons;
}

const normalize = (address: string): string => address.trim().toLowerCase();
