import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The verified DKIM signatures authenticated notices claim with their
 * outcome, as they claim their reference number (processing/outcome.repository.ts):
 * a copy of a notice changed where its signature does not reach (trailing
 * blank lines, unsigned headers) still verifies, and when its reference
 * number cannot be read it claimed nothing, so each such copy was one more
 * authenticated notice, one more payment to review, for one transfer. The
 * signature needs no parsing. Append-only, like the other claims.
 *
 * One transaction, and every statement is one that may run again (IF NOT
 * EXISTS, OR REPLACE): a run cut short leaves nothing, and a second run over a
 * first one's work changes nothing.
 */
export class NoticeSignatures1767900000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE IF NOT EXISTS ingest.notice_signatures (
        signing_domain text NOT NULL,
        -- sha256 (hex) of the signature's b= value, base64-decoded as it is verified
        b_sha256 text NOT NULL CHECK (b_sha256 ~ '^[0-9a-f]{64}$'),
        email_id text NOT NULL REFERENCES ingest.emails (id),
        claimed_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT notice_signatures_pkey PRIMARY KEY (signing_domain, b_sha256)
      )`);
    await db.query(`CREATE OR REPLACE TRIGGER notice_signatures_append_only BEFORE UPDATE OR DELETE ON ingest.notice_signatures FOR EACH ROW EXECUTE FUNCTION ingest.reject_change()`);
    await db.query(`CREATE OR REPLACE TRIGGER notice_signatures_no_truncate BEFORE TRUNCATE ON ingest.notice_signatures FOR EACH STATEMENT EXECUTE FUNCTION ingest.reject_change()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE IF EXISTS ingest.notice_signatures`);
  }
}
