import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoint requests oldest first, so the sweeper's pruning of those past the
 * Idempotency-Key retention (EndpointRepository.pruneRequests) reads only
 * them, not the whole table, every sweep interval.
 */
export class EndpointRequestsByAge1767900000000 implements MigrationInterface {
  name = 'EndpointRequestsByAge1767900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX endpoint_requests_by_age ON webhooks.endpoint_requests (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhooks.endpoint_requests_by_age`);
  }
}
