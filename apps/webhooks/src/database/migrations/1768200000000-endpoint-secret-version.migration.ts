import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which secret of an endpoint is current (1 at creation, raised by every
 * rotation), and which one each recorded creation or rotation made, so that a
 * replay answers the secret only while it is still the one its request made:
 * a secret rotated since, because it leaked, must not be handed to whoever
 * replays an older request's Idempotency-Key (docs/ARCHITECTURE.md, Webhook
 * delivery). Requests recorded before this migration made no known version
 * and are no longer replayed with a secret.
 */
export class EndpointSecretVersion1768200000000 implements MigrationInterface {
  name = 'EndpointSecretVersion1768200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.endpoints ADD COLUMN secret_version integer NOT NULL DEFAULT 1`);
    await db.query(`ALTER TABLE webhooks.endpoint_requests ADD COLUMN secret_version integer`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.endpoint_requests DROP COLUMN secret_version`);
    await db.query(`ALTER TABLE webhooks.endpoints DROP COLUMN secret_version`);
  }
}
