import type { RecordAuditEntryCommand } from '@pp/contracts';
import { retried } from '@pp/kernel';
import type { JsonLogger } from '../logging/json-logger';

/** Tries to store one entry: its id is chosen before the first, so a retry stores it once. */
const ATTEMPTS = 3;

/**
 * Stores an audit entry after the action it records succeeded, the way every
 * recorder of the trail does (the dashboard over the bus, the gateway's admin
 * API straight into its table): a few attempts, then the whole entry to the
 * error log, so nothing is lost silently. Answers whether it was stored; the
 * caller then answers 503 (AUDIT_NOT_RECORDED) in its own HTTP stack.
 */
export async function storeAuditEntry(entry: RecordAuditEntryCommand, store: (entry: RecordAuditEntryCommand) => Promise<unknown>, logger: JsonLogger): Promise<boolean> {
  try {
    await retried(() => store(entry), ATTEMPTS, 0);
    return true;
  } catch (error) {
    logger.error('audit entry not recorded', { audit_entry: entry, error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}
