import { IDEMPOTENCY_RETENTION_SECONDS } from '@pp/contracts';
import { violatedUniqueConstraint } from '@pp/platform';
import type { Queryable } from '../identity/queryable';
import type { CreationOperation, RecordedCreation } from './creation-request.policy';

/** One creation's Idempotency-Key as it is recorded with the creation: whose key space, the key, the keyed fingerprint of route and body. */
export interface CreationRequest {
  scope: string;
  key: string;
  /** IdempotencyKeys.check of the route (or bus subject) and body fingerprint: a body may hold a password, so never its plain hash. */
  keyed_fingerprint: string;
}

/** Whether a statement failed because a concurrent request recorded the same Idempotency-Key first. */
export const isRecordedAlready = (error: unknown): boolean => violatedUniqueConstraint(error) === 'creation_requests_key';

/** gateway.creation_requests (migration CreationRequests1768000000000): on a DataSource, or in the creation's transaction. */
export class CreationRequestRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * What an earlier request with this Idempotency-Key made, within the Idempotency-Key retention, after which the key
   * is new again: a record past it that the pruning has not reached yet is deleted here, so the key can be recorded anew.
   */
  async find(scope: string, key: string): Promise<RecordedCreation | undefined> {
    const [row] = await this.db.query<Array<RecordedCreation & { expired: boolean }>>(
      `SELECT operation, created_id, keyed_fingerprint, created_at <= now() - make_interval(secs => $3) AS expired
         FROM gateway.creation_requests WHERE scope = $1 AND idempotency_key = $2`,
      [scope, key, IDEMPOTENCY_RETENTION_SECONDS],
    );
    if (!row?.expired) return row && { operation: row.operation, created_id: row.created_id, keyed_fingerprint: row.keyed_fingerprint };
    await this.db.query(
      `DELETE FROM gateway.creation_requests WHERE scope = $1 AND idempotency_key = $2 AND created_at <= now() - make_interval(secs => $3)`,
      [scope, key, IDEMPOTENCY_RETENTION_SECONDS],
    );
    return undefined;
  }

  /** In the creation's transaction: a key recorded meanwhile by a concurrent request fails it whole (isRecordedAlready). */
  async insert(request: CreationRequest, operation: CreationOperation, createdId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO gateway.creation_requests (scope, idempotency_key, keyed_fingerprint, operation, created_id) VALUES ($1, $2, $3, $4, $5)`,
      [request.scope, request.key, request.keyed_fingerprint, operation, createdId],
    );
  }

  /**
   * Deletes up to `limit` records past the retention, oldest first (index creation_requests_by_age), and answers how
   * many went. The bound is find's, so a record it still answers is never deleted.
   */
  async prune(limit: number): Promise<number> {
    const [, deleted] = await this.db.query<[unknown, number]>(
      `DELETE FROM gateway.creation_requests
        WHERE (scope, idempotency_key) IN (
          SELECT scope, idempotency_key FROM gateway.creation_requests
           WHERE created_at <= now() - make_interval(secs => $1)
           ORDER BY created_at LIMIT $2)`,
      [IDEMPOTENCY_RETENTION_SECONDS, limit],
    );
    return deleted;
  }
}
