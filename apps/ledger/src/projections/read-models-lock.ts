/**
 * The transaction-scoped advisory lock that keeps a read-model rebuild and the appends' inline projections apart,
 * as the arguments of pg_advisory_xact_lock(_shared). The rebuild takes it exclusively before it locks any
 * read-model table (rebuild-read-models.ts); every append transaction takes it shared, with its stream locks, before
 * it projects (stream-locks.ts). Without it the two deadlock: the rebuild locks the tables one after another, in
 * LEDGER_PROJECTIONS order, while an append transaction running its appends one at a time writes them in event
 * order (a refund's stage to refunds, then the next append's payment to payments), so each can hold a table the
 * other waits for until Postgres aborts one (40P01). Appends share it, so they never wait on each other for it.
 *
 * Two int4 keys, a key space of their own: the stream locks each take one bigint key, which may be any value a
 * hash gives, so no stream id can ever land on this lock. The ledger's role and the owner may take it
 * (ADVISORY_LOCK_ROLES in libs/platform).
 */
export const READ_MODELS_LOCK = `hashtext('pp:ledger'), hashtext('read-models')`;
