import type { TableGrants } from '@pp/platform';

/**
 * What the ingest's role (pp_ingest) may do in schema ingest: the evidence
 * tables it may add rows to and read, never change or remove one. The
 * sweeper's marks are bookkeeping, not evidence: upserted in place (INSERT
 * … ON CONFLICT DO UPDATE needs SELECT, INSERT and UPDATE), never deleted.
 */
export const IngestGrants: TableGrants = {
  emails: ['SELECT', 'INSERT'],
  email_receipts: ['SELECT', 'INSERT'],
  email_outcomes: ['SELECT', 'INSERT'],
  email_objects: ['SELECT', 'INSERT'],
  notice_references: ['SELECT', 'INSERT'],
  notice_signatures: ['SELECT', 'INSERT'],
  notice_handoffs: ['SELECT', 'INSERT'],
  quarantined_emails: ['SELECT', 'INSERT'],
  quarantine_releases: ['SELECT', 'INSERT'],
  sweep_marks: ['SELECT', 'INSERT', 'UPDATE'],
};
