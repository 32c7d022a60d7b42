import type { RecipientReason } from '@pp/contracts';

/** Headers a genuine notice carries exactly once (Reply-To and the MIME headers: at most once). */
export type SingletonHeader = 'from' | 'subject' | 'date' | 'message-id' | 'reply-to' | MimeHeader;

/** Headers that say how the body is read: whoever can change them changes the text under a valid body hash. */
export type MimeHeader = 'mime-version' | 'content-type' | 'content-transfer-encoding';

/** Headers the passing signature must cover (From and Subject always, the MIME headers when present). */
export type CoveredHeader = 'from' | 'subject' | MimeHeader;

/** Why a message is not accepted as sent by Interac. Stable, machine-readable (docs/INGEST-FORMATS.md). */
export type AuthenticationFailure =
  | 'dkim_missing'
  | 'dkim_too_many_signatures'
  | 'dkim_untrusted_domain'
  | 'dkim_failed'
  | 'dkim_key_unavailable'
  | 'dkim_body_length_tag'
  | 'bare_carriage_return'
  | 'dkim_headers_not_covered'
  | `header_not_signed:${CoveredHeader}`
  | 'from_not_trusted'
  | 'from_not_aligned'
  | `header_missing:${SingletonHeader}`
  | `header_not_unique:${SingletonHeader}`
  | 'auth_timeout'
  | 'auth_failed';

/**
 * Whom the notice is addressed to, as far as the signature proves it: the
 * one mailbox of the To header the passing trusted signature covers (DKIM
 * signs the bottom-most instance), and why that falls short of one signed
 * mailbox in one To header. Facts only: the payments policy decides.
 */
export interface SignedRecipient {
  /** Lowercased; null when no passing trusted signature covers a To header naming exactly one mailbox. */
  signed_recipient: string | null;
  reasons: RecipientReason[];
}

export type AuthenticationResult =
  | { authenticated: true; signing_domain: string; selector: string; from: string; recipient: SignedRecipient }
  | { authenticated: false; reasons: AuthenticationFailure[]; from: string | null; recipient: SignedRecipient };

/** mailauth's DNS resolver shape: TXT answers as arrays of string chunks. */
export type DkimResolver = (name: string, rrtype: string) => Promise<string[][]>;
