import type { ClientBase } from 'pg';

/** The name of the check in the ledger's health answer (and in /readyz's `dependencies down: …`). */
export const PUBLICATION_ORDER_CHECK = 'publication-order';

/** Transaction ids (xid8) are a 32-bit epoch above a 32-bit counter. */
const EPOCH_SHIFT = 32n;

/**
 * The cluster gives out transaction ids no higher than ones the event store
 * already holds. A logical restore (pg_dump, pg_restore) into another
 * cluster does this: the rows and the checkpoint keep the old cluster's ids
 * while the new one counts from its own, far lower. Every event appended
 * then sorts before the checkpoint in the publication order and would never
 * be published, with the lag metric, on the same order, at 0.
 */
export class TransactionIdsBehind extends Error {
  constructor(
    readonly next: string,
    readonly highest: string,
  ) {
    super(
      `this Postgres cluster's next transaction id (${next}) is not above the highest the event store holds (${highest}): ` +
        'the database was restored into another cluster (pg_dump/pg_restore) without carrying its transaction ids over, ' +
        'and events appended now would sort before those already published and never reach JetStream; publication is stopped. ' +
        `Stop every ledger replica and Postgres, run \`pg_resetwal -e ${epochAbove(highest)} <data directory>\` on the stopped cluster, ` +
        'start Postgres, then the ledger (docs/OPERATIONS.md, "After any restore")',
    );
    this.name = 'TransactionIdsBehind';
  }
}

/** The transaction id epoch whose every id is above `highest`: what pg_resetwal -e must set. */
const epochAbove = (highest: string): bigint => (BigInt(highest) >> EPOCH_SHIFT) + 1n;

/**
 * Throws TransactionIdsBehind unless every transaction that starts from now
 * on gets an id above every one in the event store and its checkpoints.
 * Compared with the snapshot's xmax, the next id to be given out, not its
 * xmin: a transaction open elsewhere keeps xmin below ids already committed
 * in normal operation. The snapshot sees only ids below its xmax, so a
 * healthy cluster always passes. Two backward reads of an index (or of a
 * one-row table); it assigns no transaction id itself.
 */
export async function assertTransactionIdsAhead(db: Pick<ClientBase, 'query'>): Promise<void> {
  const { rows } = await db.query<{ next: string; highest: string | null }>(
    `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next,
            greatest(
              (SELECT transaction_id FROM ledger.events ORDER BY transaction_id DESC LIMIT 1),
              (SELECT transaction_id FROM ledger.publication_checkpoints ORDER BY transaction_id DESC LIMIT 1)
            )::text AS highest`,
  );
  const { next, highest } = rows[0];
  if (highest !== null && BigInt(highest) >= BigInt(next)) throw new TransactionIdsBehind(next, highest);
}
