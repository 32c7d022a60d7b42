import type { RecipientReason } from '@pp/contracts';

/** Headers a genuine notice carries exactly once (Reply-To and the MIME headers: at most once). */
export type SingletonHeader = 'from' | 'subject' | 'date' | 'message-id' | 'reply-to' | MimeHeader;

/**
 * Headers that say how the body is read: whoever can change them changes the text under a valid body hash
 * (a top-level Content-Disposition: attachment makes the MIME parser drop the text).
 */
export type MimeHeader = 'mime-version' | 'content-type' | 'content-transfer-encoding' | 'content-disposition';

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
  | 'header_section_too_large'
  | 'header_line_malformed'
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

/**
 * A passing signature of a trusted domain, known by its domain and the
 * sha256 (hex) of its b= bytes as mailauth verifies them (base64-decoded, so
 * that every spelling of one value is one signature). Only the domain's key
 * makes one, over the signed headers and the body hash: every copy of a
 * notice that still verifies carries it, whatever was changed around it
 * (unsigned headers, trailing blank lines), parsed or not.
 */
export interface VerifiedSignature {
  signing_domain: string;
  b_sha256: string;
}

export type AuthenticationResult =
  | {
      authenticated: true;
      signing_domain: string;
      selector: string;
      from: string;
      recipient: SignedRecipient;
      /** Every passing trusted signature, each once: what the notice claims (outcome.repository.ts). */
      signatures: VerifiedSignature[];
    }
  | { authenticated: false; reasons: AuthenticationFailure[]; from: string | null; recipient: SignedRecipient };

/** mailauth's DNS resolver shape: TXT answers as arrays of string chunks. */
export type DkimResolver = (name: string, rrtype: string) => Promise<string[][]>;
