import type { MigrationInterface, QueryRunner } from 'typeorm';

const APPEND_ONLY_TABLES = ['quarantined_emails', 'quarantine_releases'];

/**
 * Transfer e-mails addressed to no known merchant wait here for a platform
 * admin instead of being dropped; a release records that a retry matched one
 * (and to which payment). Append-only like the rest of the ingest evidence:
 * the open items are those without a release.
 */
export class Quarantine1767400000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ingest.quarantined_emails (
        email_id text PRIMARY KEY REFERENCES ingest.email_outcomes (email_id),
        -- the cursor of the admin listing (newest first)
        seq bigserial NOT NULL UNIQUE,
        -- the recipients looked up, most trustworthy first
        recipients text[] NOT NULL,
        quarantined_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE ingest.quarantine_releases (
        email_id text PRIMARY KEY REFERENCES ingest.quarantined_emails (email_id),
        merchant_id text NOT NULL,
        disposition text NOT NULL CHECK (disposition IN ('confirmed', 'manual_review')),
        payment_id text NOT NULL,
        released_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    for (const table of APPEND_ONLY_TABLES) {
      await db.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ingest.${table} FOR EACH ROW EXECUTE FUNCTION ingest.reject_change()`);
      await db.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ingest.${table} FOR EACH STATEMENT EXECUTE FUNCTION ingest.reject_change()`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ingest.quarantine_releases, ingest.quarantined_emails`);
  }
}
