import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { MerchantEventSubjects } from './merchant-events.subjects';

export const MERCHANT_EVENT_ACCESS: SubjectAccessMap<MerchantEventSubjects> = {
  'ledger.merchant-events.list.v1': { servedBy: 'ledger', callers: ['gateway', 'dashboard'] },
  'ledger.merchant-events.get.v1': { servedBy: 'ledger', callers: ['gateway', 'dashboard'] },
};
