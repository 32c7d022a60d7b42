import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Intake dedupes on the raw bytes, no longer on the Message-ID: a forgery
 * carrying a genuine notice's Message-ID and arriving first must not make the
 * genuine notice a "duplicate" that is never processed. Stored rows already
 * have distinct hashes (the same bytes always had the same key).
 */
export class DedupeByContent1767500000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ingest.emails ADD CONSTRAINT emails_raw_sha256_key UNIQUE (raw_sha256)`);
    await db.query(`ALTER TABLE ingest.emails DROP COLUMN dedupe_key`);
  }

  /** Restores the column with content keys: Message-ID keys could collide now that copies are stored. */
  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ingest.emails ADD COLUMN dedupe_key text`);
    await db.query(`ALTER TABLE ingest.emails DISABLE TRIGGER emails_append_only`);
    await db.query(`UPDATE ingest.emails SET dedupe_key = 'sha256:' || raw_sha256`);
    await db.query(`ALTER TABLE ingest.emails ENABLE TRIGGER emails_append_only`);
    await db.query(`ALTER TABLE ingest.emails ALTER COLUMN dedupe_key SET NOT NULL, ADD CONSTRAINT emails_dedupe_key_key UNIQUE (dedupe_key)`);
    await db.query(`ALTER TABLE ingest.emails DROP CONSTRAINT emails_raw_sha256_key`);
  }
}
