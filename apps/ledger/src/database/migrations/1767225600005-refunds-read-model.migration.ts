import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read model of refunds, written inline with each append. Its partial unique
 * index is a business rule (PRODUCT-RULES §3.3): at most one open or completed refund
 * per payment. The append that would break it fails in its own transaction,
 * so concurrent requests for one payment leave exactly one refund; REJECTED,
 * FAILED and CANCELLED refunds fall out of the index and free the payment.
 */
export class RefundsReadModel1767225600005 implements MigrationInterface {
  name = 'RefundsReadModel1767225600005';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ledger.refunds (
        id                 text PRIMARY KEY,
        position           bigint NOT NULL UNIQUE,
        merchant_id        text NOT NULL,
        livemode           boolean NOT NULL,
        payment_id         text NOT NULL,
        amount             bigint NOT NULL,
        status             text NOT NULL,
        requested_by       text NOT NULL,
        reason             text,
        outbound_reference text,
        evidence_note      text,
        rejection_reason   text,
        failure_reason     text,
        requested_at       timestamptz NOT NULL,
        approved_at        timestamptz,
        rejected_at        timestamptz,
        sent_at            timestamptz,
        completed_at       timestamptz,
        failed_at          timestamptz,
        cancelled_at       timestamptz,
        version            integer NOT NULL
      )`);
    await db.query(
      `CREATE UNIQUE INDEX refunds_one_per_payment ON ledger.refunds (payment_id) WHERE status IN ('REQUESTED', 'APPROVED', 'SENT', 'COMPLETED')`,
    );
    await db.query(`CREATE INDEX refunds_listing ON ledger.refunds (merchant_id, livemode, position DESC)`);
    await db.query(`CREATE INDEX refunds_by_payment ON ledger.refunds (payment_id, position DESC)`);
    await db.query(`CREATE INDEX refunds_by_status ON ledger.refunds (status, position DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ledger.refunds`);
  }
}
