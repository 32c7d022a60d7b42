import { Injectable } from '@nestjs/common';
import { IDEMPOTENCY_RETENTION_SECONDS, type IdempotencyToken, type WebhookEndpointStatus, type WebhookEndpointView, type WebhookEndpointWithSecretView } from '@pp/contracts';
import { DataSource } from 'typeorm';
import { forgetExpiredRecord, pastRetention, pruneExpiredRecords } from '../database/idempotency-records';

export interface EndpointRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  url: string;
  description: string | null;
  enabled_events: string[];
  /** The signing secret sealed by EndpointSecrets (`v1:<key id>:…`), never the secret itself. */
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  /** When the endpoint's current failure streak began; null once an attempt succeeds. */
  failing_since: Date | null;
  /** When its latest failed attempt was recorded (to the minute): a failure after a long quiet spell starts a new streak. */
  last_failure_at: Date | null;
  created_at: Date;
  /** Which secret is current: 1 at creation, raised by each rotation; a replay answers it only if its request made it. */
  secret_version: number;
  deleted_at: Date | null;
}

export interface Scope {
  merchant_id: string;
  livemode: boolean;
}

/**
 * Webhook endpoints. Signing needs the secret itself, so it cannot be hashed:
 * it is stored sealed under WEBHOOK_SECRET_KEYS (EndpointSecrets), and a check
 * on the table refuses anything else.
 */
@Injectable()
export class EndpointRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Stores a new endpoint, and the request that made it when it came with an
   * Idempotency-Key, unless the merchant already has `limit` live endpoints in
   * that mode (then undefined). One transaction holds the lock of the merchant
   * and mode's row in endpoint_scopes from the count to the insert, so concurrent creates cannot pass
   * the limit together; a key already recorded fails it whole (a unique
   * violation), so a concurrent repeat makes no second endpoint. Its
   * created_at is the database's time, to the millisecond, as the ledger's
   * events are timed: an event is delivered to the endpoints made no later
   * than it, and a process clock ahead of the database's would otherwise
   * skip the events of the merchant's very next request. It is read at the
   * insert, after the lock's wait, so the creation commits within that
   * statement's limit of it (DeliveryRepository.catchUpNewEndpoints relies
   * on that).
   */
  insertWithinLimit(
    row: Omit<EndpointRow, 'previous_secret_sealed' | 'previous_secret_expires_at' | 'disabled_reason' | 'failing_since' | 'last_failure_at' | 'deleted_at' | 'status' | 'created_at' | 'secret_version'>,
    limit: number,
    request?: IdempotencyToken,
  ): Promise<EndpointRow | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO webhooks.endpoint_scopes (merchant_id, livemode) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [row.merchant_id, row.livemode]);
      // Taken in a statement of its own: the count that follows then sees every creation committed before it.
      await tx.query(`SELECT 1 FROM webhooks.endpoint_scopes WHERE merchant_id = $1 AND livemode = $2 FOR UPDATE`, [row.merchant_id, row.livemode]);
      const [{ count }] = await tx.query(
        `SELECT count(*)::int AS count FROM webhooks.endpoints WHERE merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL`,
        [row.merchant_id, row.livemode],
      );
      if (count >= limit) return undefined;
      const [created] = await tx.query(
        `WITH made AS (
           INSERT INTO webhooks.endpoints (id, merchant_id, livemode, url, description, enabled_events, secret_sealed, status, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'enabled', date_trunc('milliseconds', clock_timestamp())) RETURNING *
         ), ${RECORD_REQUEST('made', 'create', 8)}
         SELECT * FROM made`,
        [row.id, row.merchant_id, row.livemode, row.url, row.description, row.enabled_events, row.secret_sealed, request?.key ?? null, request?.fingerprint ?? null],
      );
      return created;
    });
  }

  /**
   * The endpoint an earlier request with this Idempotency-Key made or rotated (deleted ones too), with that
   * request's fingerprint and operation; only within the gateway's retention of keys, after which a key is new again.
   * A record past the retention that the sweeper has not pruned yet is deleted here, so the key can be recorded anew.
   * `secret_unchanged`: the endpoint's secret is still the one that request made (no rotation since).
   */
  async requested(
    scope: Scope,
    idempotencyKey: string,
  ): Promise<(EndpointRow & { fingerprint: string; operation: EndpointOperation; secret_unchanged: boolean }) | undefined> {
    const [row] = await this.db.query(
      `SELECT r.fingerprint, r.operation, ${pastRetention('$4', 'r.created_at')} AS expired,
              r.secret_version IS NOT DISTINCT FROM e.secret_version AS secret_unchanged, e.*
         FROM webhooks.endpoint_requests r JOIN webhooks.endpoints e ON e.id = r.endpoint_id
        WHERE r.merchant_id = $1 AND r.livemode = $2 AND r.idempotency_key = $3`,
      [scope.merchant_id, scope.livemode, idempotencyKey, IDEMPOTENCY_RETENTION_SECONDS],
    );
    if (!row?.expired) return row;
    await forgetExpiredRecord(this.db, 'endpoint_requests', scope, idempotencyKey);
    return undefined;
  }

  /** Deletes up to `limit` request records past the retention, oldest first (idempotency-records.ts). */
  pruneRequests(limit: number): Promise<number> {
    return pruneExpiredRecords(this.db, 'endpoint_requests', limit);
  }

  list(scope: Scope): Promise<EndpointRow[]> {
    return this.db.query(
      `SELECT * FROM webhooks.endpoints WHERE merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC`,
      [scope.merchant_id, scope.livemode],
    );
  }

  async find(scope: Scope, id: string): Promise<EndpointRow | undefined> {
    const [row] = await this.db.query(
      `SELECT * FROM webhooks.endpoints WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL`,
      [id, scope.merchant_id, scope.livemode],
    );
    return row;
  }

  async softDelete(scope: Scope, id: string): Promise<boolean> {
    const [, affected] = await this.db.query(
      `UPDATE webhooks.endpoints SET deleted_at = now() WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL`,
      [id, scope.merchant_id, scope.livemode],
    );
    return affected > 0;
  }

  /**
   * Idempotent; enabling clears the reason and the failure streak, so the 410/days-failing rules start afresh.
   * Disabling bounds the endpoint's catch-up, if not settled yet, to the events before it: what the endpoint missed
   * while it was disabled is not sent once it is enabled again (DeliveryRepository.catchUpNewEndpoints).
   */
  async setStatus(scope: Scope, id: string, status: WebhookEndpointStatus, reason: string | null): Promise<EndpointRow | undefined> {
    const [rows] = await this.db.query(
      `UPDATE webhooks.endpoints
          SET status = $4, disabled_reason = $5, failing_since = CASE WHEN $4 = 'enabled' THEN NULL ELSE failing_since END,
              catch_up_until = CASE WHEN $4 = 'disabled' AND caught_up_at IS NULL THEN coalesce(catch_up_until, now()) ELSE catch_up_until END
        WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL
        RETURNING *`,
      [id, scope.merchant_id, scope.livemode, status, reason],
    );
    return rows[0];
  }

  /**
   * The current secret becomes the previous one, valid until `previousExpiresAt`; `sealedSecret` is the new one.
   * Only while the endpoint's secret is still `endpoint.secret_version` (the one read): undefined once it was
   * rotated or the endpoint deleted since.
   * The request is recorded as in insert: a concurrent repeat of its Idempotency-Key fails whole, so the endpoint
   * is never rotated twice by one request (which would drop the secret its receiver still uses).
   */
  async rotate(
    scope: Scope,
    endpoint: Pick<EndpointRow, 'id' | 'secret_version'>,
    sealedSecret: string,
    previousExpiresAt: Date,
    request?: IdempotencyToken,
  ): Promise<EndpointRow | undefined> {
    const [row] = await this.db.query(
      `WITH rotated AS (
         UPDATE webhooks.endpoints
            SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = $4, secret_sealed = $5, secret_version = secret_version + 1
          WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL AND secret_version = $8
          RETURNING *
       ), ${RECORD_REQUEST('rotated', 'rotate', 6)}
       SELECT * FROM rotated`,
      [endpoint.id, scope.merchant_id, scope.livemode, previousExpiresAt, sealedSecret, request?.key ?? null, request?.fingerprint ?? null, endpoint.secret_version],
    );
    return row;
  }
}

export type EndpointOperation = 'create' | 'rotate';

/** A CTE recording the request (Idempotency-Key in parameter `$n`, fingerprint in `$n+1`; none when null) for the endpoint `source` answers. */
const RECORD_REQUEST = (source: string, operation: EndpointOperation, n: number) => `recorded AS (
         INSERT INTO webhooks.endpoint_requests (merchant_id, livemode, idempotency_key, fingerprint, operation, endpoint_id, secret_version)
         SELECT merchant_id, livemode, $${n}::text, $${n + 1}::text, '${operation}', id, secret_version FROM ${source} WHERE $${n}::text IS NOT NULL
       )`;

export function toEndpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    enabled_events: row.enabled_events,
    livemode: row.livemode,
    status: row.status,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at.toISOString(),
  };
}

/** The view shown once, when the secret was just issued (the caller still holds it in the clear). */
export function toEndpointWithSecretView(row: EndpointRow, secret: string): WebhookEndpointWithSecretView {
  return {
    ...toEndpointView(row),
    secret,
    previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null,
  };
}
