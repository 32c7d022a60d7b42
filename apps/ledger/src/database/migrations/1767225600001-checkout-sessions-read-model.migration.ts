import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read model of checkout sessions, written inline with each append. Its unique
 * indexes carry two business rules (PRODUCT-RULES §D3): reference per merchant and
 * mode, memo across the service.
 */
export class CheckoutSessionsReadModel1767225600001 implements MigrationInterface {
  name = 'CheckoutSessionsReadModel1767225600001';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ledger.checkout_sessions (
        id             text PRIMARY KEY,
        merchant_id    text NOT NULL,
        livemode       boolean NOT NULL,
        amount         bigint NOT NULL,
        currency       text NOT NULL,
        reference      text NOT NULL,
        memo           text NOT NULL,
        status         text NOT NULL,
        client_secret  text NOT NULL,
        success_url    text NOT NULL,
        cancel_url     text NOT NULL,
        metadata       jsonb,
        expires_at     timestamptz NOT NULL,
        created_at     timestamptz NOT NULL,
        completed_at   timestamptz,
        expired_at     timestamptz,
        transaction_id text,
        version        integer NOT NULL,
        CONSTRAINT checkout_sessions_reference_key UNIQUE (merchant_id, livemode, reference),
        CONSTRAINT checkout_sessions_memo_key UNIQUE (memo)
      )`);
    await db.query(`CREATE INDEX checkout_sessions_pending_deadline ON ledger.checkout_sessions (expires_at) WHERE status = 'PENDING'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ledger.checkout_sessions`);
  }
}
