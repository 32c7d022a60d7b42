import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { CheckoutSessionSubjects } from './checkout-session.subjects';

export const CHECKOUT_SESSION_ACCESS: SubjectAccessMap<CheckoutSessionSubjects> = {
  'sessions.create.v1': { servedBy: 'sessions', callers: ['gateway'] },
  'sessions.get.v1': { servedBy: 'sessions', callers: ['gateway', 'dashboard'] },
  'sessions.sandbox-expire.v1': { servedBy: 'sessions', callers: ['gateway'] },
  'sessions.preview.v1': { servedBy: 'sessions', callers: ['dashboard'] },
};
