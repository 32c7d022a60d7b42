import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { AdminPaymentSubjects } from './admin-payments.query';
import type { PaymentSubjects } from './payments.subjects';

export const PAYMENT_ACCESS: SubjectAccessMap<PaymentSubjects & AdminPaymentSubjects> = {
  // Test mode only (sessions refuses live sessions): the API's sandbox route and the test checkout page's button.
  'payments.simulate.v1': { servedBy: 'sessions', callers: ['gateway', 'checkout'] },
  // Manual verification belongs to the dashboard, which is not built yet: no caller until it is.
  'payments.verify.v1': { servedBy: 'sessions', callers: [] },
  // Confirms live payments: only the ingest, after authenticating the bank's e-mail, may send it.
  'payments.record-transfer.v1': { servedBy: 'sessions', callers: ['ingest'] },
  'ledger.payments.list.v1': { servedBy: 'ledger', callers: ['gateway'] },
  'ledger.payments.list-all.v1': { servedBy: 'ledger', callers: ['gateway'] },
};
