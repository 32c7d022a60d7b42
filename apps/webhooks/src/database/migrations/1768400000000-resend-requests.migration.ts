import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Idempotency-Key of each resend made through the API, with the request's
 * fingerprint, its event and the endpoints it made due: a retry of a request
 * whose answer was lost (the gateway frees its key on an error) answers them
 * again instead of queuing a second set of attempts. Oldest first too, so the
 * sweeper's pruning of those past the retention reads only them.
 */
export class ResendRequests1768400000000 implements MigrationInterface {
  name = 'ResendRequests1768400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhooks.resend_requests (
        merchant_id     text NOT NULL,
        livemode        boolean NOT NULL,
        idempotency_key text NOT NULL,
        fingerprint     text NOT NULL,
        event_id        text NOT NULL REFERENCES webhooks.events (id),
        webhook_ids     text[] NOT NULL,
        created_at      timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (merchant_id, livemode, idempotency_key)
      )`);
    await db.query(`CREATE INDEX resend_requests_by_age ON webhooks.resend_requests (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhooks.resend_requests`);
  }
}
