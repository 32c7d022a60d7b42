/** Wire values (SPEC §2.2): do not rename. */
export const TRANSACTION_STATUSES = ['PENDING', 'CONFIRMED', 'FAILED', 'REFUNDED', 'REQUIRES_MANUAL_REVIEW'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const VERIFICATION_METHODS = ['AUTO_EMAIL', 'MANUAL_ADMIN', 'PSP_PAY'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/**
 * Machine-readable reasons a transfer needs review (DESIGN.md §3). The ingest
 * may add its own (e.g. unauthenticated_sender) through `review_reason`.
 */
export enum ReviewReason {
  WrongAmount = 'wrong_amount',
  UnknownMemo = 'unknown_memo',
  SessionExpired = 'session_expired',
  SessionCompleted = 'session_completed',
  TestSession = 'test_session',
}

/** A transaction as GET /v1/payments lists it (SPEC §2.2, plus session_id and livemode from DESIGN.md §3). */
export interface TransactionView {
  id: string;
  etransfer_ref: string | null;
  amount: number;
  sender_name: string;
  sender_email: string | null;
  comment: string | null;
  status: TransactionStatus;
  verification_method: VerificationMethod;
  created_at: string;
  session_id: string | null;
  livemode: boolean;
  /** Why it needs (or needed) review; empty when it did not. */
  review_reasons: string[];
  /** The dashboard user who verified it manually, else null. */
  verified_by: string | null;
}
