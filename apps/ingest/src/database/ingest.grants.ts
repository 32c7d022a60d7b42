import type { TableGrants } from '@pp/platform';

/**
 * What the ingest's role (pp_ingest) may do in schema ingest: every table is
 * evidence, so it may add rows and read them, never change or remove one.
 */
export const IngestGrants: TableGrants = {
  emails: ['SELECT', 'INSERT'],
  email_receipts: ['SELECT', 'INSERT'],
  email_outcomes: ['SELECT', 'INSERT'],
  notice_references: ['SELECT', 'INSERT'],
  notice_handoffs: ['SELECT', 'INSERT'],
  quarantined_emails: ['SELECT', 'INSERT'],
  quarantine_releases: ['SELECT', 'INSERT'],
};
