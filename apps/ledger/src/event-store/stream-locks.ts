import type { AppendStreamsRequest } from '@pp/contracts';
import type { ClientBase } from 'pg';

/**
 * Locks every stream a group-commit batch writes or requires unchanged, all in one statement at the
 * start of its transaction, in one order shared by every ledger replica (the
 * streams' 64-bit hashes, ascending). Two replicas whose batches write the
 * same streams then wait for each other's commit at this point, whole,
 * instead of each inserting half of them and waiting on the other's
 * uncommitted rows until Postgres breaks the deadlock (a stall of its
 * deadlock_timeout, and one batch failed). The event positions keep the order
 * of arrival: only the locks are sorted.
 *
 * Transaction-scoped advisory locks: held to COMMIT or ROLLBACK, kept across
 * the batch's savepoints, so the one-append-at-a-time fallback runs under
 * them too. Two streams whose hashes collide merely share a lock.
 */
export async function lockStreamsInOrder(db: ClientBase, requests: readonly AppendStreamsRequest[]): Promise<void> {
  const streamIds = [...new Set(requests.flatMap((request) => [...request.streams, ...(request.unchanged ?? [])].map((stream) => stream.stream_id)))];
  // The subquery sorts before the outer query takes the locks, one row at a time, in its order. Equal hashes
  // come together, and a lock this transaction holds is taken again at once.
  await db.query(
    `SELECT count(pg_advisory_xact_lock(k)) FROM (
       SELECT hashtextextended(s, 0) AS k FROM unnest($1::text[]) AS s ORDER BY k
     ) AS sorted`,
    [streamIds],
  );
}
