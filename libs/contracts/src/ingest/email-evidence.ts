import { IsString, Matches } from 'class-validator';
import { EMAIL_ID_PATTERN } from './quarantine';

/** `ingest.emails.evidence.v1`: what the ingest established about one stored e-mail (platform admins reviewing a payment). */
export class GetEmailEvidenceQuery {
  @IsString()
  @Matches(EMAIL_ID_PATTERN, { message: 'email_id must look like em_…' })
  email_id!: string;
}

/**
 * One stored transfer e-mail as evidence: where it came from, whether Interac
 * provably sent it (DKIM), to whom, and what the parser read. Everything but
 * `authenticated`, `signing_domain` and `signed_recipient` is as the sender wrote it.
 */
export interface EmailEvidenceView {
  id: string;
  received_at: string;
  /** How it reached the ingest: the gateway's HTTP route ('bus') or the JetStream subject. */
  channel: 'bus' | 'jetstream';
  message_id: string | null;
  size_bytes: number;
  /** The From address as written. */
  from: string | null;
  subject: string | null;
  /** parsed, rejected, unauthenticated or duplicate (of `duplicate_of`). */
  status: 'parsed' | 'rejected' | 'unauthenticated' | 'duplicate';
  authenticated: boolean;
  /** The trusted domain whose DKIM signature passed, when authenticated. */
  signing_domain: string | null;
  /** Why it is not authenticated (dkim_missing, header_not_unique:from, …). */
  authentication_reasons: string[];
  /** The one To mailbox the passing signature covers, lowercased; null when none. */
  signed_recipient: string | null;
  recipient_reasons: string[];
  /** Every To and Delivered-To address, lowercased. */
  to: string[];
  delivered_to: string[];
  /** What the parser read; null where it read nothing. */
  kind: string;
  sender_name: string | null;
  amount_cents: number | null;
  memo: string | null;
  reference_number: string | null;
  /** The payer's Message as the parser read it (the payment's comment). */
  message: string | null;
  /** The notice's whole text as the parser read it (the HTML flattened), at most NOTICE_TEXT_SHOWN characters: what a reviewer judges by. */
  notice_text: string | null;
  parse_reasons: string[];
  duplicate_of: string | null;
}

/** Past this many characters a notice's text is cut in its evidence: a genuine one is a few hundred. */
export const NOTICE_TEXT_SHOWN = 20_000;
