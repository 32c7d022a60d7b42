import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoints, the events they are sent (body kept as the exact bytes that are
 * signed), one delivery per (event, endpoint) carrying its schedule and lease,
 * and one row per attempt.
 */
export class WebhooksTables1767400000000 implements MigrationInterface {
  name = 'WebhooksTables1767400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhooks.endpoints (
        id                          text PRIMARY KEY,
        merchant_id                 text NOT NULL,
        livemode                    boolean NOT NULL,
        url                         text NOT NULL,
        description                 text,
        enabled_events              text[] NOT NULL,
        secret                      text NOT NULL,
        previous_secret             text,
        previous_secret_expires_at  timestamptz,
        status                      text NOT NULL CHECK (status IN ('enabled', 'disabled')),
        disabled_reason             text,
        failing_since               timestamptz,
        created_at                  timestamptz NOT NULL,
        deleted_at                  timestamptz
      )`);
    await db.query(`CREATE INDEX endpoints_by_merchant ON webhooks.endpoints (merchant_id, livemode, created_at DESC) WHERE deleted_at IS NULL`);
    await db.query(`
      CREATE TABLE webhooks.events (
        id           text PRIMARY KEY,
        merchant_id  text NOT NULL,
        livemode     boolean NOT NULL,
        type         text NOT NULL,
        body         text NOT NULL,
        trace        jsonb,
        created_at   timestamptz NOT NULL
      )`);
    await db.query(`
      CREATE TABLE webhooks.deliveries (
        id                text PRIMARY KEY,
        event_id          text NOT NULL REFERENCES webhooks.events (id),
        endpoint_id       text NOT NULL REFERENCES webhooks.endpoints (id),
        status            text NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED', 'EXHAUSTED')),
        attempts          integer NOT NULL DEFAULT 0,
        next_attempt_at   timestamptz,
        lease_owner       text,
        lease_expires_at  timestamptz,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        UNIQUE (event_id, endpoint_id)
      )`);
    await db.query(`CREATE INDEX deliveries_due ON webhooks.deliveries (next_attempt_at) WHERE status IN ('PENDING', 'FAILED')`);
    await db.query(`CREATE INDEX deliveries_by_endpoint ON webhooks.deliveries (endpoint_id) WHERE status IN ('PENDING', 'FAILED')`);
    await db.query(`
      CREATE TABLE webhooks.delivery_attempts (
        id               bigserial PRIMARY KEY,
        delivery_id      text NOT NULL REFERENCES webhooks.deliveries (id),
        event_id         text NOT NULL,
        endpoint_id      text NOT NULL,
        url              text NOT NULL,
        attempt          integer NOT NULL,
        delivery_status  text NOT NULL CHECK (delivery_status IN ('PENDING', 'SUCCESS', 'FAILED', 'EXHAUSTED')),
        http_status      integer,
        latency_ms       integer,
        error_message    text,
        next_retry_at    timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        UNIQUE (delivery_id, attempt)
      )`);
    await db.query(`CREATE INDEX delivery_attempts_by_event ON webhooks.delivery_attempts (event_id, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhooks.delivery_attempts, webhooks.deliveries, webhooks.events, webhooks.endpoints`);
  }
}
