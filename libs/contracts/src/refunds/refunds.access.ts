import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { RefundSubjects } from './refunds.subjects';

export const REFUND_ACCESS: SubjectAccessMap<RefundSubjects> = {
  'refunds.request.v1': { servedBy: 'refunds', callers: ['gateway', 'dashboard'] },
  'refunds.approve.v1': { servedBy: 'refunds', callers: ['gateway', 'dashboard'] },
  'refunds.reject.v1': { servedBy: 'refunds', callers: ['gateway', 'dashboard'] },
  'refunds.mark-sent.v1': { servedBy: 'refunds', callers: ['gateway', 'dashboard'] },
  'refunds.complete.v1': { servedBy: 'refunds', callers: ['gateway', 'dashboard'] },
  'refunds.fail.v1': { servedBy: 'refunds', callers: ['gateway', 'dashboard'] },
  'refunds.cancel.v1': { servedBy: 'refunds', callers: ['gateway', 'dashboard'] },
  'payments.decide-refund.v1': { servedBy: 'sessions', callers: ['refunds'] },
  'ledger.refunds.get.v1': { servedBy: 'ledger', callers: ['gateway'] },
  'ledger.refunds.list.v1': { servedBy: 'ledger', callers: ['gateway', 'dashboard'] },
  'ledger.refunds.admin-get.v1': { servedBy: 'ledger', callers: ['gateway'] },
  'ledger.refunds.admin-list.v1': { servedBy: 'ledger', callers: ['gateway', 'dashboard'] },
};
