/**
 * Whether verifying a payment in review would complete its session for an amount other than the one paid: a
 * verified payment completes its session while the session is still PENDING (PRODUCT-RULES §3.2), and the
 * merchant's `checkout.session.completed` carries the session's amount, so a transfer of the wrong amount must
 * not be verified by a click that does not say so.
 */
export function verifyCompletesForOtherAmount(
  payment: { status: string; amount: number },
  session: { status: string; amount: number } | null,
): boolean {
  return payment.status === 'REQUIRES_MANUAL_REVIEW' && session?.status === 'PENDING' && session.amount !== payment.amount;
}

/**
 * The review reasons that doubt the notice stands for money paid into the merchant's account: not proven to come from
 * Interac (a forged e-mail claims any amount), or not proven to be addressed to the merchant's deposit address (a
 * genuine notice of someone else's transfer, re-sent here). ReviewReason and RECIPIENT_REASONS in contracts; the
 * unit spec checks every ReviewReason is decided here or in MONEY_PROVEN_REASONS.
 */
export const MONEY_UNPROVEN_REASONS: readonly string[] = [
  'unauthenticated_sender',
  'recipient_mismatch',
  'recipient_missing',
  'recipient_not_unique',
  'recipient_not_single_mailbox',
  'recipient_not_signed',
];

/** The review reasons that say nothing against the money having arrived (the amount, the memo, the session's state). */
export const MONEY_PROVEN_REASONS: readonly string[] = ['wrong_amount', 'unknown_memo', 'session_expired', 'session_completed', 'test_session'];

/**
 * The ingest's authentication failures (docs/INGEST-FORMATS.md, "Authentication"), which follow
 * `unauthenticated_sender`; some name a header after a colon (`header_not_signed:from`).
 */
export const AUTHENTICATION_FAILURES: readonly string[] = [
  'dkim_missing',
  'dkim_too_many_signatures',
  'dkim_untrusted_domain',
  'dkim_failed',
  'dkim_key_unavailable',
  'dkim_body_length_tag',
  'bare_carriage_return',
  'header_section_too_large',
  'header_line_malformed',
  'dkim_headers_not_covered',
  'header_not_signed',
  'from_not_trusted',
  'from_not_aligned',
  'header_missing',
  'header_not_unique',
  'auth_timeout',
  'auth_failed',
];

const unproven = new Set([...MONEY_UNPROVEN_REASONS, ...AUTHENTICATION_FAILURES]);

/**
 * Whether verifying must first be preceded by a look at the bank account: the review reasons doubt the notice is
 * Interac's, for this merchant, so only the money's arrival proves the payment, and a verify without it would confirm
 * (and complete the session of) a transfer that may never have been made.
 */
export const mustCheckBankFirst = (reviewReasons: readonly string[]): boolean =>
  reviewReasons.some((reason) => unproven.has(reason.split(':', 1)[0]));
