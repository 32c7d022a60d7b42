import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gateway names a large message's blob-bucket object by the sha256 of
 * the bytes it was posted, and intake stores (and hashes) them without what
 * a mail pipeline put in front (blank lines, an mbox postmark): for such a
 * message the object's name is no stored hash. A post repeating the object
 * after the first post stored it and removed it (two concurrent posts of one
 * message, or a retried one) is looked up here instead. Append-only.
 *
 * One transaction, and every statement is one that may run again (IF NOT
 * EXISTS, OR REPLACE): a run cut short leaves nothing, and a second run over a
 * first one's work changes nothing.
 */
export class EmailObjects1768000000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE IF NOT EXISTS ingest.email_objects (
        object_name text PRIMARY KEY CHECK (object_name ~ '^[0-9a-f]{64}$'),
        email_id text NOT NULL REFERENCES ingest.emails (id),
        recorded_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE OR REPLACE TRIGGER email_objects_append_only BEFORE UPDATE OR DELETE ON ingest.email_objects FOR EACH ROW EXECUTE FUNCTION ingest.reject_change()`);
    await db.query(`CREATE OR REPLACE TRIGGER email_objects_no_truncate BEFORE TRUNCATE ON ingest.email_objects FOR EACH STATEMENT EXECUTE FUNCTION ingest.reject_change()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE IF EXISTS ingest.email_objects`);
  }
}
