import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The dashboard home's figures: one merchant and mode's payments of the last days, by creation time. */
export class PaymentsByDay1767225600011 implements MigrationInterface {
  name = 'PaymentsByDay1767225600011';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX payments_by_day ON ledger.payments (merchant_id, livemode, created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ledger.payments_by_day`);
  }
}
