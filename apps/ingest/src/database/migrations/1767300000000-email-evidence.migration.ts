import type { MigrationInterface, QueryRunner } from 'typeorm';

const APPEND_ONLY_TABLES = ['emails', 'email_receipts', 'email_outcomes', 'notice_references', 'notice_handoffs'];

/**
 * Raw transfer e-mails as evidence, each arrival, each processing outcome and
 * hand-off. Every table is append-only, enforced by the database: a raw
 * message or a verdict, once written, can never be changed or removed.
 */
export class EmailEvidence1767300000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ingest.emails (
        id text PRIMARY KEY,
        -- "mid:<Message-ID>", or "sha256:<hex>" for a message without one: one stored copy per key
        dedupe_key text NOT NULL UNIQUE,
        message_id text,
        raw bytea NOT NULL,
        raw_sha256 text NOT NULL,
        size_bytes integer NOT NULL CHECK (size_bytes > 0),
        channel text NOT NULL CHECK (channel IN ('bus', 'jetstream')),
        received_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE ingest.email_receipts (
        id bigserial PRIMARY KEY,
        email_id text NOT NULL REFERENCES ingest.emails (id),
        channel text NOT NULL CHECK (channel IN ('bus', 'jetstream')),
        status text NOT NULL CHECK (status IN ('accepted', 'duplicate')),
        received_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX email_receipts_email_id ON ingest.email_receipts (email_id)`);
    await db.query(`
      CREATE TABLE ingest.email_outcomes (
        email_id text PRIMARY KEY REFERENCES ingest.emails (id),
        status text NOT NULL CHECK (status IN ('parsed', 'rejected', 'unauthenticated', 'duplicate')),
        authenticated boolean NOT NULL,
        auth_reasons text[] NOT NULL,
        signing_domain text,
        parse_reasons text[] NOT NULL,
        kind text NOT NULL,
        reference_number text,
        amount_cents bigint,
        memo text,
        -- the whole verdicts as handed to the NoticeHandler, so a hand-off can be repeated without re-reading DNS
        authentication jsonb NOT NULL,
        parse jsonb NOT NULL,
        recipients jsonb NOT NULL,
        duplicate_of text REFERENCES ingest.emails (id),
        processed_at timestamptz(3) NOT NULL DEFAULT now(),
        CHECK ((status = 'duplicate') = (duplicate_of IS NOT NULL)),
        CHECK (status <> 'parsed' OR (authenticated AND parse ->> 'status' = 'parsed'))
      )`);
    await db.query(`CREATE INDEX email_outcomes_reference_number ON ingest.email_outcomes (reference_number)`);
    await db.query(`
      CREATE TABLE ingest.notice_references (
        reference_number text NOT NULL,
        kind text NOT NULL,
        email_id text NOT NULL UNIQUE REFERENCES ingest.emails (id),
        claimed_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (reference_number, kind)
      )`);
    await db.query(`
      CREATE TABLE ingest.notice_handoffs (
        email_id text PRIMARY KEY REFERENCES ingest.email_outcomes (email_id),
        disposition text NOT NULL,
        handed_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE FUNCTION ingest.reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ingest.% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
      END $$`);
    for (const table of APPEND_ONLY_TABLES) {
      await db.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ingest.${table} FOR EACH ROW EXECUTE FUNCTION ingest.reject_change()`);
      await db.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ingest.${table} FOR EACH STATEMENT EXECUTE FUNCTION ingest.reject_change()`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ingest.notice_handoffs, ingest.notice_references, ingest.email_outcomes, ingest.email_receipts, ingest.emails`);
    await db.query(`DROP FUNCTION ingest.reject_change()`);
  }
}
