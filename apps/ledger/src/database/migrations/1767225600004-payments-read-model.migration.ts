import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read model of payments (transactions), and the lookups the payment commands
 * need on checkout sessions. GET /v1/payments?reference= is a partial match
 * on etransfer_ref, comment and the session's reference: the three are kept
 * lowercased in one generated column joined by a unit separator (which the
 * query refuses, so a match never spans two fields) and indexed with pg_trgm,
 * which serves LIKE '%…%' from a GIN index at millions of rows.
 */
export class PaymentsReadModel1767225600004 implements MigrationInterface {
  name = 'PaymentsReadModel1767225600004';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
    await db.query(`
      CREATE TABLE ledger.payments (
        id                  text PRIMARY KEY,
        position            bigint NOT NULL UNIQUE,
        merchant_id         text NOT NULL,
        livemode            boolean NOT NULL,
        session_id          text,
        session_reference   text,
        etransfer_ref       text,
        amount              bigint NOT NULL,
        sender_name         text NOT NULL,
        sender_email        text,
        comment             text,
        status              text NOT NULL,
        verification_method text NOT NULL,
        review_reasons      text[] NOT NULL,
        verified_by         text,
        email_id            text,
        reference_number    text,
        created_at          timestamptz NOT NULL,
        updated_at          timestamptz NOT NULL,
        version             integer NOT NULL,
        search_text         text GENERATED ALWAYS AS (
          lower(coalesce(etransfer_ref, '') || E'\\x1f' || coalesce(comment, '') || E'\\x1f' || coalesce(session_reference, ''))
        ) STORED
      )`);
    await db.query(`CREATE INDEX payments_listing ON ledger.payments (merchant_id, livemode, position DESC)`);
    await db.query(`CREATE INDEX payments_search_trgm ON ledger.payments USING gin (search_text public.gin_trgm_ops)`);
    await db.query(`CREATE INDEX payments_by_session ON ledger.payments (session_id) WHERE session_id IS NOT NULL`);
    await db.query(
      `CREATE INDEX checkout_sessions_reference_ci ON ledger.checkout_sessions (merchant_id, livemode, lower(reference))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ledger.checkout_sessions_reference_ci`);
    await db.query(`DROP TABLE ledger.payments`);
  }
}
