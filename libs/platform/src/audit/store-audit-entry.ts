import type { RecordAuditEntryCommand } from '@pp/contracts';
import { retried } from '@pp/kernel';
import type { Counter } from 'prom-client';
import type { JsonLogger } from '../logging/json-logger';
import { AUDIT_ENTRIES_UNRECORDED } from '../metrics/metric-catalog';
import type { ServiceMetrics } from '../metrics/service-metrics';

/** Tries to store one entry: its id is chosen before the first, so a retry stores it once. */
const ATTEMPTS = 3;
/**
 * The wait before the second attempt; the third waits twice as long (retried), 450 ms in all. A store that
 * fails at once (no responder while the one replica that stores restarts, a connection being made again)
 * gets a moment to come back, where attempts back to back would all fail within milliseconds; short, since
 * the user's request waits for it.
 */
const RETRY_WAIT_MS = 150;

/** A recorder's count of the entries it could not store, exported at 0 from its start so that an alert's increase() sees the first. */
export const unrecordedAuditEntries = (metrics: ServiceMetrics): Counter => metrics.counter(AUDIT_ENTRIES_UNRECORDED, { startAtZero: {} });

/**
 * Stores an audit entry after the action it records succeeded, the way every
 * recorder of the trail does (the dashboard over the bus, the gateway's admin
 * API straight into its table): a few attempts a moment apart, then the whole
 * entry to the error log and a count on `unrecorded` (AuditEntriesUnrecorded
 * alerts on it; null for the gateway CLI, which no Prometheus scrapes and
 * which exits 1 instead), so nothing is lost silently. Answers whether it
 * was stored; the caller then answers 503 (AUDIT_NOT_RECORDED) in its own
 * HTTP stack.
 */
export async function storeAuditEntry(
  entry: RecordAuditEntryCommand,
  store: (entry: RecordAuditEntryCommand) => Promise<unknown>,
  logger: JsonLogger,
  unrecorded: Counter | null,
): Promise<boolean> {
  try {
    await retried(() => store(entry), ATTEMPTS, RETRY_WAIT_MS);
    return true;
  } catch (error) {
    logger.error('audit entry not recorded', { audit_entry: entry, error: error instanceof Error ? error.message : String(error) });
    unrecorded?.inc();
    return false;
  }
}
