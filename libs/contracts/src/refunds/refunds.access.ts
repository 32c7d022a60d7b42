import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { RefundSubjects } from './refunds.subjects';

export const REFUND_ACCESS: SubjectAccessMap<RefundSubjects> = {
  'refunds.request.v1': { servedBy: 'refunds', callers: ['gateway'] },
  'refunds.approve.v1': { servedBy: 'refunds', callers: ['gateway'] },
  'refunds.reject.v1': { servedBy: 'refunds', callers: ['gateway'] },
  'refunds.mark-sent.v1': { servedBy: 'refunds', callers: ['gateway'] },
  'refunds.complete.v1': { servedBy: 'refunds', callers: ['gateway'] },
  'refunds.fail.v1': { servedBy: 'refunds', callers: ['gateway'] },
  'refunds.cancel.v1': { servedBy: 'refunds', callers: ['gateway'] },
  'payments.decide-refund.v1': { servedBy: 'sessions', callers: ['refunds'] },
  'ledger.refunds.get.v1': { servedBy: 'ledger', callers: ['gateway'] },
  'ledger.refunds.list.v1': { servedBy: 'ledger', callers: ['gateway'] },
  'ledger.refunds.admin-get.v1': { servedBy: 'ledger', callers: ['gateway'] },
  'ledger.refunds.admin-list.v1': { servedBy: 'ledger', callers: ['gateway'] },
};
