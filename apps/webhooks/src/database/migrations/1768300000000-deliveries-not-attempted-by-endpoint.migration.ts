import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint's deliveries not attempted yet, by age: the pending lines of
 * its recent deliveries (DeliveryRepository.listEndpointAttempts) are read
 * newest first and only as many as the page shows, instead of sorting the
 * whole backlog of an endpoint that does not answer. It replaces
 * deliveries_by_endpoint (every open delivery, by endpoint alone), which only
 * that query read; it holds fewer rows, since the first attempts claimed at
 * intake are stored attempted and retries have been.
 */
export class DeliveriesNotAttemptedByEndpoint1768300000000 implements MigrationInterface {
  name = 'DeliveriesNotAttemptedByEndpoint1768300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX deliveries_not_attempted_by_endpoint ON webhooks.deliveries (endpoint_id, created_at) WHERE attempts = 0 AND status IN ('PENDING', 'FAILED')`,
    );
    await db.query(`DROP INDEX webhooks.deliveries_by_endpoint`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX deliveries_by_endpoint ON webhooks.deliveries (endpoint_id) WHERE status IN ('PENDING', 'FAILED')`);
    await db.query(`DROP INDEX webhooks.deliveries_not_attempted_by_endpoint`);
  }
}
