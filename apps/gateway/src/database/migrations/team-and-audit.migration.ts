import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Team page and the audit trail. A removed dashboard user keeps its row
 * (audit entries name it) but no longer signs in, and its e-mail may be
 * given to a new user. Audit entries are append-only, enforced by the
 * database: once written, an entry can never be changed or removed.
 */
export class TeamAndAudit1767600000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.dashboard_users ADD COLUMN removed_at timestamptz(3), ADD COLUMN last_sign_in_at timestamptz(3)`);
    await db.query(`DROP INDEX gateway.dashboard_users_email`);
    await db.query(`CREATE UNIQUE INDEX dashboard_users_email ON gateway.dashboard_users (lower(email)) WHERE removed_at IS NULL`);
    await db.query(`
      CREATE TABLE gateway.audit_entries (
        position bigserial NOT NULL UNIQUE,
        id text PRIMARY KEY,
        actor_id text,
        actor_email text NOT NULL,
        actor_role text,
        merchant_id text,
        livemode boolean,
        action text NOT NULL,
        target_id text,
        outcome text NOT NULL CHECK (outcome IN ('success', 'failure')),
        detail text,
        request_id text NOT NULL,
        address text NOT NULL,
        at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX audit_entries_merchant ON gateway.audit_entries (merchant_id, position)`);
    await db.query(`
      CREATE FUNCTION gateway.reject_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'gateway.audit_entries is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
      END $$`);
    await db.query(`CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON gateway.audit_entries FOR EACH ROW EXECUTE FUNCTION gateway.reject_audit_change()`);
    await db.query(`CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON gateway.audit_entries FOR EACH STATEMENT EXECUTE FUNCTION gateway.reject_audit_change()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE gateway.audit_entries`);
    await db.query(`DROP FUNCTION gateway.reject_audit_change()`);
    await db.query(`DROP INDEX gateway.dashboard_users_email`);
    await db.query(`CREATE UNIQUE INDEX dashboard_users_email ON gateway.dashboard_users (lower(email))`);
    await db.query(`ALTER TABLE gateway.dashboard_users DROP COLUMN removed_at, DROP COLUMN last_sign_in_at`);
  }
}
