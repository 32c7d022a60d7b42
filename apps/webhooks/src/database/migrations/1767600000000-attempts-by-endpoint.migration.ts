import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An endpoint's latest attempts, newest first (the dashboard's "recent deliveries" of an endpoint). */
export class AttemptsByEndpoint1767600000000 implements MigrationInterface {
  name = 'AttemptsByEndpoint1767600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX delivery_attempts_by_endpoint ON webhooks.delivery_attempts (endpoint_id, id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhooks.delivery_attempts_by_endpoint`);
  }
}
