import type { ListPage } from '../list-page';
import type { EmailEvidenceView, GetEmailEvidenceQuery } from './email-evidence';
import type { ListQuarantineParams, QuarantinedEmailView, QuarantineRetryReply, RetryQuarantinedEmailCommand } from './quarantine';
import type { SubmitEmailCommand, SubmitEmailReply } from './submit-email.command';

/** Served by the ingest service. */
export interface IngestSubjects {
  /**
   * Stores one raw transfer e-mail (append-only) and processes it. A copy of the same bytes,
   * or an authenticated notice repeating an Interac reference number, answers 'duplicate'
   * (never a mere Message-ID: a forgery can copy it). Errors: VALIDATION_FAILED (not base64, not RFC 822, larger than 5 MB).
   */
  'ingest.email.submit.v1': { request: SubmitEmailCommand; reply: SubmitEmailReply };
  /** Transfer e-mails addressed to no known merchant (platform admins), newest first. NOT_FOUND when starting_after is not quarantined. */
  'ingest.quarantine.list.v1': { request: ListQuarantineParams; reply: ListPage<QuarantinedEmailView> };
  /**
   * Matches a quarantined e-mail again. Idempotent: a released one answers its release (changed: false).
   * NOT_FOUND 'Quarantined e-mail not found'; CONFLICT when its recipient is still no merchant's deposit address.
   * Callers wait QUARANTINE_RELEASE_TIMEOUT_MS.
   */
  'ingest.quarantine.retry.v1': { request: RetryQuarantinedEmailCommand; reply: QuarantineRetryReply };
  /** One stored e-mail's evidence (platform admins reviewing a payment). NOT_FOUND 'E-mail not found'. */
  'ingest.emails.evidence.v1': { request: GetEmailEvidenceQuery; reply: EmailEvidenceView };
}
