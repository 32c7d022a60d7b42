import type { MatchingDisposition } from '@pp/contracts';
import type { ProcessedEmail } from './processed-email';

/** What the handler did with a notice, recorded once per e-mail in ingest.notice_handoffs. */
export interface HandoffResult {
  /** A MatchingDisposition: confirmed, manual_review, quarantined, no_payment or not_a_notice. */
  disposition: MatchingDisposition;
  /** For manual_review: the reasons the payments policy gave (counted in metrics; the payment keeps them). */
  review_reasons?: string[];
  /** For confirmed and manual_review: the payment recorded, and its merchant (releases the e-mail if an earlier hand-off quarantined it). */
  payment?: { merchant_id: string; payment_id: string };
}

/**
 * The seam where matching plugs in. Called once for every processed e-mail that
 * is not a duplicate (parsed, rejected or unauthenticated: a transfer that
 * cannot be confirmed must still reach manual review, never be dropped), after
 * its outcome is committed. After a crash it may be called again for the same
 * e-mail, so an implementation must be idempotent by `email_id`.
 */
export interface NoticeHandler {
  handle(email: ProcessedEmail): Promise<HandoffResult>;
}

export const NOTICE_HANDLER = Symbol('NOTICE_HANDLER');
