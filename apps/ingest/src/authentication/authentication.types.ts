/** Headers a genuine notice carries exactly once (Reply-To: at most once). */
export type SingletonHeader = 'from' | 'subject' | 'date' | 'message-id' | 'reply-to';

/** Why a message is not accepted as sent by Interac. Stable, machine-readable (docs/INGEST-FORMATS.md). */
export type AuthenticationFailure =
  | 'dkim_missing'
  | 'dkim_untrusted_domain'
  | 'dkim_failed'
  | 'dkim_key_unavailable'
  | 'dkim_body_length_tag'
  | 'dkim_headers_not_covered'
  | 'from_not_trusted'
  | 'from_not_aligned'
  | `header_missing:${SingletonHeader}`
  | `header_not_unique:${SingletonHeader}`;

export type AuthenticationResult =
  | { authenticated: true; signing_domain: string; selector: string; from: string }
  | { authenticated: false; reasons: AuthenticationFailure[]; from: string | null };

/** mailauth's DNS resolver shape: TXT answers as arrays of string chunks. */
export type DkimResolver = (name: string, rrtype: string) => Promise<string[][]>;
