import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an endpoint was first disabled before its catch-up settled: the
 * catch-up (DeliveryRepository.catchUpNewEndpoints) still gives it the
 * events it missed while its creation committed, all of which are older,
 * and none of the spell it was disabled, which the intake skipped on
 * purpose. Before this, a disabling settled the catch-up outright, and an
 * endpoint disabled and enabled again within seconds of its creation lost
 * the events of that moment.
 */
export class EndpointCatchUpUntil1768700000000 implements MigrationInterface {
  name = 'EndpointCatchUpUntil1768700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.endpoints ADD COLUMN IF NOT EXISTS catch_up_until timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.endpoints DROP COLUMN IF EXISTS catch_up_until`);
  }
}
