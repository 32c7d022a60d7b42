import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { LedgerSubjects } from './ledger.subjects';

/** Only the services that own aggregates append; the gateway reads read models and never writes. */
export const LEDGER_ACCESS: SubjectAccessMap<LedgerSubjects> = {
  'ledger.append.v1': { servedBy: 'ledger', callers: ['sessions'] },
  'ledger.append-streams.v1': { servedBy: 'ledger', callers: ['sessions'] },
  'ledger.append-refund-streams.v1': { servedBy: 'ledger', callers: ['refunds'] },
  'ledger.idempotency.replay.v1': { servedBy: 'ledger', callers: ['sessions', 'refunds'] },
  'ledger.stream.read.v1': { servedBy: 'ledger', callers: ['sessions', 'refunds'] },
  'ledger.checkout-sessions.get.v1': { servedBy: 'ledger', callers: ['sessions'] },
  'ledger.checkout-sessions.list.v1': { servedBy: 'ledger', callers: ['dashboard'] },
  'ledger.checkout-sessions.resolve.v1': { servedBy: 'ledger', callers: ['sessions'] },
  'ledger.checkout-sessions.by-memo.v1': { servedBy: 'ledger', callers: ['sessions'] },
  'ledger.checkout-sessions.overdue.v1': { servedBy: 'ledger', callers: ['sessions'] },
};
