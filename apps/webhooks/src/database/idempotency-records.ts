import { IDEMPOTENCY_RETENTION_SECONDS } from '@pp/contracts';
import type { DataSource } from 'typeorm';

/**
 * The tables that keep each Idempotency-Key the service was given, with what
 * its request made, for the gateway's retention of keys: keyed by
 * (merchant_id, livemode, idempotency_key), with `created_at` and an index by
 * it (`<table>_by_age`).
 */
export type IdempotencyRecordTable = 'endpoint_requests' | 'resend_requests';

/** SQL: the record is past the retention (`retention`, a parameter holding IDEMPOTENCY_RETENTION_SECONDS; `createdAt`, its column). */
export const pastRetention = (retention: string, createdAt = 'created_at'): string => `${createdAt} <= now() - make_interval(secs => ${retention})`;

/**
 * Deletes the scope's record of `key` if it is past the retention, so the key
 * can be recorded anew: its request is a new one (a record the sweeper has not
 * pruned yet would otherwise answer, or refuse, it).
 */
export async function forgetExpiredRecord(db: DataSource, table: IdempotencyRecordTable, scope: { merchant_id: string; livemode: boolean }, key: string): Promise<void> {
  await db.query(`DELETE FROM webhooks.${table} WHERE merchant_id = $1 AND livemode = $2 AND idempotency_key = $3 AND ${pastRetention('$4')}`, [
    scope.merchant_id,
    scope.livemode,
    key,
    IDEMPOTENCY_RETENTION_SECONDS,
  ]);
}

/**
 * Deletes up to `limit` records past the retention, oldest first (through the
 * age index), and answers how many went. The bound is the one every lookup
 * applies, so a record a lookup still answers is never deleted; while one is
 * kept its key cannot be recorded again.
 */
export async function pruneExpiredRecords(db: DataSource, table: IdempotencyRecordTable, limit: number): Promise<number> {
  const [, deleted] = await db.query(
    `DELETE FROM webhooks.${table}
      WHERE (merchant_id, livemode, idempotency_key) IN (
        SELECT merchant_id, livemode, idempotency_key FROM webhooks.${table}
         WHERE ${pastRetention('$1')}
         ORDER BY created_at LIMIT $2)`,
    [IDEMPOTENCY_RETENTION_SECONDS, limit],
  );
  return deleted;
}
