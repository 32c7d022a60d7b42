/** Wire values (PRODUCT-RULES §2.2): do not rename. */
export const PAYMENT_STATUSES = ['PENDING', 'CONFIRMED', 'FAILED', 'REFUNDED', 'REQUIRES_MANUAL_REVIEW'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const VERIFICATION_METHODS = ['AUTO_EMAIL', 'MANUAL_ADMIN', 'PSP_PAY'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/**
 * Machine-readable reasons a transfer needs review (PRODUCT-RULES §D3,
 * docs/INGEST-FORMATS.md), decided by the sessions service's transfer-match
 * policy. The ingest's authentication and parse reasons follow them as given.
 */
export enum ReviewReason {
  WrongAmount = 'wrong_amount',
  UnknownMemo = 'unknown_memo',
  SessionExpired = 'session_expired',
  SessionCompleted = 'session_completed',
  TestSession = 'test_session',
  /** Not proven to come from Interac; the authentication reasons follow. */
  UnauthenticatedSender = 'unauthenticated_sender',
  /** The signed recipient is not the merchant's registered deposit address (the notice was routed by another header). */
  RecipientMismatch = 'recipient_mismatch',
  /** The notice has no To header. */
  RecipientMissing = 'recipient_missing',
  /** Several To headers: DKIM signs only the bottom one, a mail reader may show (or merge) the others. */
  RecipientNotUnique = 'recipient_not_unique',
  /** The signed To header names several mailboxes, a group, no readable address, or a display name that could hide another (INGEST-FORMATS). */
  RecipientNotSingleMailbox = 'recipient_not_single_mailbox',
  /** No passing trusted signature covers the To header. */
  RecipientNotSigned = 'recipient_not_signed',
}

/** What the ingest may report about a notice's recipient (TransferEvidence.recipient_reasons). */
export const RECIPIENT_REASONS = [
  ReviewReason.RecipientMissing,
  ReviewReason.RecipientNotUnique,
  ReviewReason.RecipientNotSingleMailbox,
  ReviewReason.RecipientNotSigned,
] as const;
/** The codes as string literals, so a reason read back from storage or a test needs no enum. */
export type RecipientReason = `${(typeof RECIPIENT_REASONS)[number]}`;

/** A transaction as GET /v1/payments lists it (PRODUCT-RULES §2.2, plus session_id and livemode from PRODUCT-RULES §D3). */
export interface PaymentView {
  id: string;
  etransfer_ref: string | null;
  amount: number;
  sender_name: string;
  sender_email: string | null;
  comment: string | null;
  status: PaymentStatus;
  verification_method: VerificationMethod;
  created_at: string;
  session_id: string | null;
  livemode: boolean;
  /** Why it needs (or needed) review; empty when it did not. */
  review_reasons: string[];
  /** The dashboard user who verified it manually, else null. */
  verified_by: string | null;
}
