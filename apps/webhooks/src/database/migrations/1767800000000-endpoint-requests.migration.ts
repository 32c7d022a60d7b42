import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Idempotency-Key of each endpoint creation and secret rotation made
 * through the API, with the request's fingerprint and the endpoint it made
 * or rotated: a retry of a request whose answer was lost (the gateway frees
 * its key on an error) answers the endpoint again instead of making a second
 * endpoint or rotating twice, which would drop the secret still in use.
 */
export class EndpointRequests1767800000000 implements MigrationInterface {
  name = 'EndpointRequests1767800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhooks.endpoint_requests (
        merchant_id     text NOT NULL,
        livemode        boolean NOT NULL,
        idempotency_key text NOT NULL,
        fingerprint     text NOT NULL,
        operation       text NOT NULL CHECK (operation IN ('create', 'rotate')),
        endpoint_id     text NOT NULL REFERENCES webhooks.endpoints (id),
        created_at      timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (merchant_id, livemode, idempotency_key)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhooks.endpoint_requests`);
  }
}
