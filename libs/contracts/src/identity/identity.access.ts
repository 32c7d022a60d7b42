import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { IdentitySubjects } from './identity.subjects';

export const IDENTITY_ACCESS: SubjectAccessMap<IdentitySubjects> = {
  // Live e-mail matching: which merchant a notice was sent to.
  'identity.merchants-by-deposit-address.v1': { servedBy: 'gateway', callers: ['ingest'] },
  // The gateway holds the password hashes; the dashboard only learns who signed in.
  'identity.dashboard-login.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.dashboard-password.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  // A session's principal re-read once older than the dashboard's recheck bound (a changed role, a removed user).
  'identity.dashboard-principal.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  // The Developers page: keys are stored (as hashes) and checked by the gateway.
  'identity.api-keys.list.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.api-keys.create.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.api-keys.revoke.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  // The platform admins' console (merchants are the gateway's).
  'identity.merchants.list.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.merchants.create.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.merchants.update.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  // The Team page (dashboard users are the gateway's) and the audit trail it stores.
  'identity.team.list.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.team.add.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.team.set-role.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.team.remove.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.audit.record.v1': { servedBy: 'gateway', callers: ['dashboard'] },
  'identity.audit.list.v1': { servedBy: 'gateway', callers: ['dashboard'] },
};
