import { EmailEvidence1767300000000 } from './1767300000000-email-evidence.migration';

/** Every migration of the ingest schema, oldest first. */
export const IngestMigrations: Function[] = [EmailEvidence1767300000000];
