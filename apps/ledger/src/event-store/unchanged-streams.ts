import type { UnchangedStream } from '@pp/contracts';
import type { ClientBase } from 'pg';

/**
 * The streams of `required` that are no longer at their version. Run after
 * the batch's stream locks (stream-locks.ts), which cover these streams too:
 * every writer of a stream holds its lock to commit, so what this statement
 * sees cannot move before the append commits.
 */
export async function movedStreams(db: ClientBase, required: readonly UnchangedStream[]): Promise<UnchangedStream[]> {
  if (required.length === 0) return [];
  const { rows } = await db.query<UnchangedStream>(
    `SELECT r.stream_id, r.version FROM jsonb_to_recordset($1::jsonb) AS r(stream_id text, version int)
     WHERE (SELECT coalesce(max(x.version), 0) FROM ledger.events x WHERE x.stream_id = r.stream_id) <> r.version`,
    [JSON.stringify(required)],
  );
  return rows;
}
