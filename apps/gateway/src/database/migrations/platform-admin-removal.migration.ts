import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A platform admin can be removed (an operator who left, a leaked password): the row stays for the audit trail's
 * names, sign-in and the dashboard's principal recheck skip it, and its e-mail is free for a new account.
 */
export class PlatformAdminRemoval1767900000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.platform_admins ADD COLUMN removed_at timestamptz(3)`);
    await db.query(`DROP INDEX gateway.platform_admins_email`);
    await db.query(`CREATE UNIQUE INDEX platform_admins_email ON gateway.platform_admins (lower(email)) WHERE removed_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM gateway.platform_admins WHERE removed_at IS NOT NULL`);
    await db.query(`DROP INDEX gateway.platform_admins_email`);
    await db.query(`CREATE UNIQUE INDEX platform_admins_email ON gateway.platform_admins (lower(email))`);
    await db.query(`ALTER TABLE gateway.platform_admins DROP COLUMN removed_at`);
  }
}
