import type { AppendStreamsRequest } from '@pp/contracts';
import type { ClientBase } from 'pg';
import { READ_MODELS_LOCK } from '../projections/read-models-lock';

/**
 * The locks a group-commit batch takes at the start of its transaction, all in one statement (sent with BEGIN
 * on the pipelined connection: no round trip of its own): every stream it writes or requires unchanged, and,
 * shared, the read models'.
 *
 * The streams are locked in one order shared by every ledger replica (the
 * streams' 64-bit hashes, ascending). Two replicas whose batches write the
 * same streams then wait for each other's commit at this point, whole,
 * instead of each inserting half of them and waiting on the other's
 * uncommitted rows until Postgres breaks the deadlock (a stall of its
 * deadlock_timeout, and one batch failed). The event positions keep the order
 * of arrival: only the locks are sorted.
 *
 * The read models' lock (READ_MODELS_LOCK), shared, keeps the batch's projections from starting while a rebuild
 * holds it, and the rebuild from locking the tables while the batch holds it. It is taken as the statement's one row
 * is formed, after the stream locks; either order is safe, as a rebuild takes no stream lock.
 *
 * Transaction-scoped advisory locks: held to COMMIT or ROLLBACK, kept across
 * the batch's savepoints, so the one-append-at-a-time fallback runs under
 * them too. Two streams whose hashes collide merely share a lock.
 */
export async function takeAppendLocks(db: ClientBase, requests: readonly AppendStreamsRequest[]): Promise<void> {
  const streamIds = [...new Set(requests.flatMap((request) => [...request.streams, ...(request.unchanged ?? [])].map((stream) => stream.stream_id)))];
  // The subquery sorts before the outer query takes the locks, one row at a time, in its order. Equal hashes
  // come together, and a lock this transaction holds is taken again at once.
  await db.query(
    `SELECT pg_advisory_xact_lock_shared(${READ_MODELS_LOCK}), count(pg_advisory_xact_lock(k)) FROM (
       SELECT hashtextextended(s, 0) AS k FROM unnest($1::text[]) AS s ORDER BY k
     ) AS sorted`,
    [streamIds],
  );
}
