import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { IngestSubjects } from './ingest.subjects';

export const INGEST_ACCESS: SubjectAccessMap<IngestSubjects> = {
  'ingest.email.submit.v1': { servedBy: 'ingest', callers: ['gateway'] },
  'ingest.quarantine.list.v1': { servedBy: 'ingest', callers: ['gateway'] },
  'ingest.quarantine.retry.v1': { servedBy: 'ingest', callers: ['gateway'] },
  'ingest.emails.evidence.v1': { servedBy: 'ingest', callers: ['dashboard'] },
};
