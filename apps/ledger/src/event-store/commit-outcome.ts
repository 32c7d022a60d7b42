import { setTimeout as sleep } from 'node:timers/promises';
import type { PoolClient } from 'pg';
import type { AppendConnectionSource } from './append-connection';

/** What became of a transaction whose connection was lost after COMMIT was sent. */
export type CommitOutcome = 'committed' | 'rolled-back' | 'unknown';

/** How long the old backend may take to end before the outcome is called unknown. It ends as soon as it finds its client gone. */
export const BACKEND_END_WAIT_MS = 2000;
const POLL_MS = 20;

/** The server process of a connection, which node-postgres learns at connect (BackendKeyData) but does not type. */
export const backendPidOf = (db: object): number | undefined => {
  const pid = (db as { processID?: unknown }).processID;
  return typeof pid === 'number' ? pid : undefined;
};

/**
 * Looks up whether the transaction of a lost connection committed, knowing one event it wrote. First waits for its
 * backend (`backendPid`) to end: until then the transaction may still be committing, and an event not yet visible
 * proves nothing. A backend never ends with its transaction open, so once it is gone the event is there exactly when
 * the transaction committed. Asked in two statements, the backend first: within one, the event would be read from a
 * snapshot taken before the backend's state. A pid taken again by a new backend in the meantime, a wait past the
 * bound or a failed lookup leave the outcome unknown.
 */
export async function commitOutcome(connection: AppendConnectionSource, backendPid: number | undefined, writtenEventId: string): Promise<CommitOutcome> {
  if (backendPid === undefined) return 'unknown';
  let db: PoolClient;
  try {
    db = await connection.connect();
  } catch {
    return 'unknown';
  }
  try {
    const until = Date.now() + BACKEND_END_WAIT_MS;
    while ((await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [backendPid])).rowCount !== 0) {
      if (Date.now() >= until) {
        db.release();
        return 'unknown';
      }
      await sleep(POLL_MS);
    }
    const { rowCount } = await db.query('SELECT 1 FROM ledger.events WHERE id = $1', [writtenEventId]);
    db.release();
    return rowCount === 1 ? 'committed' : 'rolled-back';
  } catch (error) {
    db.release(error instanceof Error ? error : new Error(String(error)));
    return 'unknown';
  }
}
