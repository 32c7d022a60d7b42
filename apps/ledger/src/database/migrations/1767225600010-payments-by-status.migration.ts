import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The platform admins' cross-merchant listing by status (the manual-review queue), newest first. */
export class PaymentsByStatus1767225600010 implements MigrationInterface {
  name = 'PaymentsByStatus1767225600010';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX payments_by_status ON ledger.payments (status, position DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ledger.payments_by_status`);
  }
}
