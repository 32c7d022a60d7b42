import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One live refund per outbound transfer: the reference an operator records as
 * the evidence that the money went back can complete one refund only, so one
 * bank transfer cannot be shown as the proof of several (PRODUCT-RULES §3.3).
 * References are compared without case or surrounding space, as a bank's are read.
 */
export class RefundOutboundReference1767225600012 implements MigrationInterface {
  name = 'RefundOutboundReference1767225600012';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE UNIQUE INDEX refunds_one_per_outbound_reference ON ledger.refunds (lower(btrim(outbound_reference))) WHERE livemode AND outbound_reference IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ledger.refunds_one_per_outbound_reference`);
  }
}
