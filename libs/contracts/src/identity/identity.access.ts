import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { IdentitySubjects } from './identity.subjects';

export const IDENTITY_ACCESS: SubjectAccessMap<IdentitySubjects> = {
  'identity.merchant-by-deposit-address.v1': { servedBy: 'gateway', callers: ['ingest'] },
};
