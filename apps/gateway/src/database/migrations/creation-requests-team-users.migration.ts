import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A team user the dashboard adds is answered with a password generated and
 * shown once, as the other creations in gateway.creation_requests are: its
 * Idempotency-Key is recorded with it, so a retry whose answer was lost adds
 * nobody a second time (operation `team_user`).
 */
export class CreationRequestsTeamUsers1768400000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.creation_requests DROP CONSTRAINT creation_requests_operation_check`);
    await db.query(
      `ALTER TABLE gateway.creation_requests ADD CONSTRAINT creation_requests_operation_check CHECK (operation IN ('api_key', 'merchant', 'platform_admin', 'team_user'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM gateway.creation_requests WHERE operation = 'team_user'`);
    await db.query(`ALTER TABLE gateway.creation_requests DROP CONSTRAINT creation_requests_operation_check`);
    await db.query(`ALTER TABLE gateway.creation_requests ADD CONSTRAINT creation_requests_operation_check CHECK (operation IN ('api_key', 'merchant', 'platform_admin'))`);
  }
}
