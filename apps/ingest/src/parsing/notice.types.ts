/** What an Interac e-Transfer notification says happened. Only 'deposit' means the money arrived. */
/**
 * What an Interac notice says happened. `money_request`: someone asks the merchant for money (Request Money), never a
 * payment to it; `outgoing`: a transfer the merchant sent was deposited at the other end (its own refund, say).
 */
export type NoticeKind = 'deposit' | 'not_deposited' | 'reminder' | 'cancelled' | 'expired' | 'declined' | 'money_request' | 'outgoing' | 'unknown';

export type NoticeLanguage = 'en' | 'fr';

/**
 * Why a message did not yield a deposit notice. Machine-readable and stable:
 * they are stored with the outcome and shown in manual review
 * (docs/INGEST-FORMATS.md lists them).
 */
export type ParseReason =
  | 'mime_unparseable'
  | 'unrecognized_notice'
  | 'not_a_deposit'
  | 'body_not_a_deposit'
  | 'amount_missing'
  | 'amount_unparseable'
  | 'amount_mismatch'
  | 'memo_missing'
  | 'memo_ambiguous'
  | 'reference_missing'
  | 'reference_ambiguous'
  | 'sender_missing'
  | 'name_ambiguous'
  | 'message_too_long'
  | 'parse_timeout'
  | 'parse_failed'
  /** Set by matching, never by the parser: a rejected parse recorded without a reason still needs one to be reviewed. */
  | 'parse_incomplete';

/** A deposit notice every check agreed on: ready for matching. */
export interface ParsedNotice {
  kind: 'deposit';
  language: NoticeLanguage;
  /** Integer cents of CAD. */
  amount_cents: number;
  /** Canonical memo, "PP-XXXXXX". */
  memo: string;
  /** Interac reference number, e.g. "C1AYd8eJYUcY". */
  reference_number: string;
  /** The payer as Interac names them. */
  sender_name: string;
  /** The payer's address from Reply-To, when Interac gives one. */
  sender_email: string | null;
  /** Transfer date printed in the body, "YYYY-MM-DD", when present and readable. */
  transfer_date: string | null;
  /** The Date header, ISO 8601 UTC, or null when missing or unreadable (never "now"). */
  sent_at: string | null;
  subject: string;
  /** The payer's Message as written, or null when it is empty or the text has no Message label. */
  comment: string | null;
}

/** Everything the parser could read, whether or not it adds up to a deposit. */
export interface NoticeFields {
  kind: NoticeKind;
  language: NoticeLanguage | null;
  amount_cents: number | null;
  /**
   * Every amount read (integer cents) and who wrote it: the subject's and
   * Interac's body text (`body`) must agree, and the payer's Message
   * (`message`) may only agree with them. Outcomes recorded before the
   * Message was read apart have no `message`, and may hold its amounts in `body`.
   */
  amounts: { subject: number | null; body: number[]; message?: number[] };
  memos: string[];
  reference_number: string | null;
  sender_name: string | null;
  sender_email: string | null;
  transfer_date: string | null;
  sent_at: string | null;
  subject: string;
  comment: string | null;
  /** The whole message text (plain text, or the HTML flattened), kept with the outcome for review. */
  text: string;
}

export type NoticeParseResult =
  | { status: 'parsed'; notice: ParsedNotice; fields: NoticeFields }
  | { status: 'rejected'; reasons: ParseReason[]; fields: NoticeFields };
