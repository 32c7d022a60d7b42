import type { Pool } from 'pg';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from '../event-store/stored-event.row';
import { type Projection, project } from './projection';

export interface RebuildProgress {
  done: number;
  total: number;
}

/**
 * Empties the projections' tables and replays every event in position order,
 * in one transaction: readers see the old read models until the new ones
 * commit, and appends wait on the table locks instead of writing into a half
 * rebuilt model (their inline projection runs after the rebuild commits).
 */
export async function rebuildReadModels(
  pool: Pool,
  projections: readonly Projection[],
  onProgress: (progress: RebuildProgress) => void,
  pageSize = 1000,
): Promise<RebuildProgress> {
  const tables = projections.flatMap((projection) => projection.tables).join(', ');
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    await db.query(`LOCK TABLE ${tables} IN ACCESS EXCLUSIVE MODE`);
    await db.query(`TRUNCATE ${tables}`);
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
    await db.query('COMMIT');
    return progress;
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    db.release();
  }
}
