import { Injectable } from '@nestjs/common';
import type { WebhookEndpointStatus, WebhookEndpointView, WebhookEndpointWithSecretView } from '@pp/contracts';
import { DataSource } from 'typeorm';

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
  failing_since: Date | null;
  created_at: Date;
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

  async insert(row: Omit<EndpointRow, 'previous_secret_sealed' | 'previous_secret_expires_at' | 'disabled_reason' | 'failing_since' | 'deleted_at' | 'status'>): Promise<EndpointRow> {
    const [created] = await this.db.query(
      `INSERT INTO webhooks.endpoints (id, merchant_id, livemode, url, description, enabled_events, secret_sealed, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'enabled', $8) RETURNING *`,
      [row.id, row.merchant_id, row.livemode, row.url, row.description, row.enabled_events, row.secret_sealed, row.created_at],
    );
    return created;
  }

  async countLive(scope: Scope): Promise<number> {
    const [{ count }] = await this.db.query(
      `SELECT count(*)::int AS count FROM webhooks.endpoints WHERE merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL`,
      [scope.merchant_id, scope.livemode],
    );
    return count;
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

  /** Idempotent; enabling clears the reason and the failure streak, so the 410/days-failing rules start afresh. */
  async setStatus(scope: Scope, id: string, status: WebhookEndpointStatus, reason: string | null): Promise<EndpointRow | undefined> {
    const [rows] = await this.db.query(
      `UPDATE webhooks.endpoints
          SET status = $4, disabled_reason = $5, failing_since = CASE WHEN $4 = 'enabled' THEN NULL ELSE failing_since END
        WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL
        RETURNING *`,
      [id, scope.merchant_id, scope.livemode, status, reason],
    );
    return rows[0];
  }

  /** The current secret becomes the previous one, valid until `previousExpiresAt`; `sealedSecret` is the new one. */
  async rotate(scope: Scope, id: string, sealedSecret: string, previousExpiresAt: Date): Promise<EndpointRow | undefined> {
    const [rows] = await this.db.query(
      `UPDATE webhooks.endpoints
          SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = $4, secret_sealed = $5
        WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL
        RETURNING *`,
      [id, scope.merchant_id, scope.livemode, previousExpiresAt, sealedSecret],
    );
    return rows[0];
  }
}

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
