import type { ClientBase, Pool } from 'pg';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from '../event-store/stored-event.row';
import { type Projection, project } from './projection';
import { READ_MODELS_LOCK } from './read-models-lock';

export interface RebuildProgress {
  done: number;
  total: number;
}

/** A unique index dropped for the replay, and the statement that makes it again. */
interface SetAsideIndex {
  name: string;
  definition: string;
}

/**
 * Empties the projections' tables and replays every event in position order,
 * in one transaction, then commits: the read models change all at once, and
 * a failure (or a stopped rebuild) leaves the old ones.
 *
 * It is not invisible to the running services. From the moment it asks for
 * the read models' advisory lock (READ_MODELS_LOCK, which every append
 * transaction takes shared before it projects) until it commits, the appends
 * wait for it (a replica's group commit runs one batch at a time, so one
 * waiting batch holds up all its appends); from the moment it asks for the
 * tables' ACCESS EXCLUSIVE lock (which TRUNCATE and DROP INDEX need), so do
 * the API's reads. Their bus callers give up after 5 s and
 * the ledger's statements are cancelled after 30 s (SERVICE_SESSION_LIMITS),
 * so while it runs those requests fail. Publication stalls as well: it publishes only events of
 * transactions older than every one still running (publishPage), so nothing
 * appended after the rebuild began goes out before it ends. Run it in a
 * maintenance window (docs/OPERATIONS.md, "Rebuild read models").
 *
 * Position order is not the order in which the live appends met the unique
 * indexes. An index whose membership depends on a row's current state (a
 * partial one such as refunds_one_per_payment) can take a row because
 * another stream's event, with a later position, committed first: refund R2's
 * request at position 19 waits on R1's uncommitted cancellation at 20 and
 * succeeds when it commits, as no stream lock orders the two. Replayed by
 * position, R2 would meet R1 still open. So the replay runs without the
 * tables' unique indexes that back no constraint (partial and expression
 * ones, the only kind that can be partial), and makes them again from their
 * saved definitions before it commits: the final state satisfies them, since
 * the live one did, and if it did not the rebuild fails and changes nothing.
 * Unique constraints (keys, `UNIQUE (...)`) stay: they hold columns no event
 * changes after the insert, so no two conflicting rows ever both commit.
 */
export async function rebuildReadModels(
  pool: Pool,
  projections: readonly Projection[],
  onProgress: (progress: RebuildProgress) => void,
  pageSize = 1000,
): Promise<RebuildProgress> {
  const tableNames = projections.flatMap((projection) => projection.tables);
  const tables = tableNames.join(', ');
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    // Before any table: it waits for the append transactions under way to commit, and the next ones wait for it,
    // whose projections would otherwise deadlock with the table locks below (READ_MODELS_LOCK).
    await db.query(`SELECT pg_advisory_xact_lock(${READ_MODELS_LOCK})`);
    await db.query(`LOCK TABLE ${tables} IN ACCESS EXCLUSIVE MODE`);
    await db.query(`TRUNCATE ${tables}`);
    const setAside = await dropStateDependentUniqueIndexes(db, tableNames);
    const { rows: counted } = await db.query<{ total: string }>('SELECT count(*) AS total FROM ledger.events');
    const progress = { done: 0, total: Number(counted[0].total) };
    onProgress(progress);
    for (let after = 0; ; ) {
      const { rows } = await db.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM ledger.events WHERE position > $1 ORDER BY position LIMIT $2`,
        [after, pageSize],
      );
      if (rows.length === 0) break;
      const events = rows.map(toStoredEvent);
      await project(db, projections, events);
      after = events[events.length - 1].position;
      progress.done += events.length;
      onProgress({ ...progress, total: Math.max(progress.total, progress.done) });
    }
    for (const index of setAside) await db.query(index.definition);
    await db.query('COMMIT');
    return progress;
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    db.release();
  }
}

/** Drops the unique indexes of `tables` that back no constraint, answering how to make each again. */
async function dropStateDependentUniqueIndexes(db: ClientBase, tables: readonly string[]): Promise<SetAsideIndex[]> {
  const { rows } = await db.query<SetAsideIndex>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE i.indrelid = ANY($1::text[]::regclass[])
        AND i.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid AND k.contype IN ('p', 'u', 'x'))
      ORDER BY 1`,
    [tables],
  );
  for (const index of rows) await db.query(`DROP INDEX ${index.name}`);
  return rows;
}
