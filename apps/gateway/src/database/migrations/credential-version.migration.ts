import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The version of each dashboard user's and platform admin's password: one more at every change, in the same UPDATE
 * as the hash. A sign-in and a recheck answer it with the principal, and the dashboard ends a session holding an
 * older one (docs/ARCHITECTURE.md "Dashboard"). Existing accounts start at 0.
 */
export class CredentialVersion1767800000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.dashboard_users ADD COLUMN credential_version integer NOT NULL DEFAULT 0`);
    await db.query(`ALTER TABLE gateway.platform_admins ADD COLUMN credential_version integer NOT NULL DEFAULT 0`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.platform_admins DROP COLUMN credential_version`);
    await db.query(`ALTER TABLE gateway.dashboard_users DROP COLUMN credential_version`);
  }
}
