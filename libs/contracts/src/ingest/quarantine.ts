import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { MAX_ADMIN_PAGE_LIMIT, PageLimit } from '../list-page';

export const EMAIL_ID_PATTERN = /^em_[a-z0-9]{8,64}$/;

/**
 * What matching did with one notice (recorded in ingest.notice_handoffs):
 * - confirmed: a payment CONFIRMED automatically (AUTO_EMAIL)
 * - manual_review: a REQUIRES_MANUAL_REVIEW payment with reasons
 * - quarantined: addressed to no known merchant; waits for a platform admin
 * - no_payment: an Interac notice that is not money (not deposited, reminder, cancelled, expired, declined)
 * - not_a_notice: unauthenticated mail that does not even read as an Interac notice
 */
export const MATCHING_DISPOSITIONS = ['confirmed', 'manual_review', 'quarantined', 'no_payment', 'not_a_notice'] as const;
export type MatchingDisposition = (typeof MATCHING_DISPOSITIONS)[number];

export const QUARANTINE_STATUSES = ['quarantined', 'released'] as const;
export type QuarantineStatus = (typeof QUARANTINE_STATUSES)[number];

/** Page size of the quarantine list when the caller names no `limit`. */
export const DEFAULT_QUARANTINE_PAGE_LIMIT = 20;

/** Query string of GET /v1/admin/ingest/quarantine, and `ingest.quarantine.list.v1`. */
export class ListQuarantineParams {
  /** quarantined (default): still waiting; released: matched after a retry. */
  @IsOptional()
  @IsIn(QUARANTINE_STATUSES)
  status?: QuarantineStatus;

  @PageLimit(MAX_ADMIN_PAGE_LIMIT)
  limit?: number;

  @IsOptional()
  @IsString()
  @Matches(EMAIL_ID_PATTERN)
  starting_after?: string;
}

/**
 * How long an edge (the gateway's admin API, the dashboard's console) waits for `ingest.quarantine.retry.v1`:
 * the retry looks the recipient up and records the transfer, each allowed 15 s by the ingest, so the bus's default
 * (5 s) would answer 503 for a release that then goes through.
 */
export const QUARANTINE_RELEASE_TIMEOUT_MS = 30_000;

/** `ingest.quarantine.retry.v1`: match a quarantined e-mail again (after its merchant registered the address). */
export class RetryQuarantinedEmailCommand {
  @IsString()
  @Matches(EMAIL_ID_PATTERN, { message: 'email_id must look like em_…' })
  email_id!: string;

  /**
   * The operator asking (a platform admin's id, or `admin-token:<id>`), stored with the release whether or not its
   * answer arrives. Optional while a rolling deploy still runs edges that do not send it (stored as null then).
   */
  @IsOptional()
  @IsString()
  @Length(1, 128)
  released_by?: string | null;
}

export interface QuarantineRelease {
  released_at: string;
  merchant_id: string;
  disposition: Extract<MatchingDisposition, 'confirmed' | 'manual_review'>;
  payment_id: string;
  /** Who asked for the release; null when none did (a repeated hand-off matched it). */
  released_by: string | null;
}

/** A transfer e-mail addressed to no known merchant, as a platform admin sees it. */
export interface QuarantinedEmailView {
  /** The stored e-mail, em_… */
  id: string;
  status: QuarantineStatus;
  received_at: string;
  quarantined_at: string;
  /** The recipients matching looked up (the signed recipient, every To, then Delivered-To), lowercased. */
  recipients: string[];
  /** The From address as written (trusted only when authenticated is true). */
  from: string | null;
  authenticated: boolean;
  subject: string;
  amount_cents: number | null;
  memo: string | null;
  reference_number: string | null;
  sender_name: string | null;
  /** Why it would need review anyway (authentication and parse reasons); empty for a clean notice. */
  reasons: string[];
  release: QuarantineRelease | null;
}

export interface RetryQuarantinedEmailReply extends QuarantineRelease {
  id: string;
}

/**
 * The answer to `ingest.quarantine.retry.v1`: the release, and whether this retry made it (false: the e-mail was
 * already released, and nothing changed). `changed` says who released it on an audit trail; HTTP clients get the
 * release without it.
 */
export type QuarantineRetryReply = RetryQuarantinedEmailReply & { changed: boolean };

/** What the audit trail says of a release: its outcome, or `already released` for a repeat, so the trail names one admin as having released it. */
export const quarantineReleaseDetail = ({ changed, disposition, payment_id }: QuarantineRetryReply): string =>
  changed === false ? 'already released' : `${disposition} ${payment_id}`;
