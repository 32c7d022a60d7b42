import type { SubmitEmailCommand, SubmitEmailReply } from './submit-email.command';

/** Served by the ingest service. */
export interface IngestSubjects {
  /**
   * Stores one raw transfer e-mail (append-only) and processes it. A copy with the same
   * Message-ID, or an authenticated notice repeating an Interac reference number, answers
   * 'duplicate'. Errors: VALIDATION_FAILED (not base64, not RFC 822, larger than 5 MB).
   */
  'ingest.email.submit.v1': { request: SubmitEmailCommand; reply: SubmitEmailReply };
}
