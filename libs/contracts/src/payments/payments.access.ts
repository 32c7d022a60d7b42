import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { AdminPaymentSubjects } from './admin-payments.query';
import type { PaymentSummarySubjects } from './payment-summary.query';
import type { PaymentSubjects } from './payments.subjects';

export const PAYMENT_ACCESS: SubjectAccessMap<PaymentSubjects & AdminPaymentSubjects & PaymentSummarySubjects> = {
  // Test mode only (sessions refuses live sessions): the API's sandbox route and the dashboard's simulate action. Never
  // the checkout app: its pages are the payer's, and whoever holds a session's URL must not be able to confirm it.
  'payments.simulate.v1': { servedBy: 'sessions', callers: ['gateway', 'dashboard'] },
  // Manual verification belongs to the dashboard (administrators and owners).
  'payments.verify.v1': { servedBy: 'sessions', callers: ['dashboard'] },
  // Confirms live payments: only the ingest, after authenticating the bank's e-mail, may send it.
  'payments.record-transfer.v1': { servedBy: 'sessions', callers: ['ingest'] },
  'ledger.payments.list.v1': { servedBy: 'ledger', callers: ['gateway', 'dashboard'] },
  'ledger.payments.get.v1': { servedBy: 'ledger', callers: ['dashboard'] },
  'ledger.payments.summary.v1': { servedBy: 'ledger', callers: ['dashboard'] },
  'ledger.payments.list-all.v1': { servedBy: 'ledger', callers: ['gateway', 'dashboard'] },
};
