import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { IngestSubjects } from './ingest.subjects';

export const INGEST_ACCESS: SubjectAccessMap<IngestSubjects> = {
  'ingest.email.submit.v1': { servedBy: 'ingest', callers: ['gateway'] },
  // The gateway's admin API and the dashboard's platform-admin console.
  'ingest.quarantine.list.v1': { servedBy: 'ingest', callers: ['gateway', 'dashboard'] },
  'ingest.quarantine.retry.v1': { servedBy: 'ingest', callers: ['gateway', 'dashboard'] },
  'ingest.emails.evidence.v1': { servedBy: 'ingest', callers: ['dashboard'] },
};
