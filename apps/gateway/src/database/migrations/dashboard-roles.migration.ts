import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The four dashboard roles (owner, administrator, developer, viewer); the former 'admin' is an administrator. */
export class DashboardRoles1767500000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.dashboard_users DROP CONSTRAINT IF EXISTS dashboard_users_role_check`);
    await db.query(`UPDATE gateway.dashboard_users SET role = 'administrator' WHERE role = 'admin'`);
    await db.query(
      `ALTER TABLE gateway.dashboard_users ADD CONSTRAINT dashboard_users_role_check CHECK (role IN ('owner', 'administrator', 'developer', 'viewer'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.dashboard_users DROP CONSTRAINT dashboard_users_role_check`);
    await db.query(`UPDATE gateway.dashboard_users SET role = 'admin' WHERE role <> 'owner'`);
    await db.query(`ALTER TABLE gateway.dashboard_users ADD CONSTRAINT dashboard_users_role_check CHECK (role IN ('owner', 'admin'))`);
  }
}
