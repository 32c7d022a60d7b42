import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deposit address names one merchant: live e-mail matching finds the
 * merchant of a transfer notice by it (case-insensitive, exact). Fails on a
 * database where two merchants already share one; clear one of them first.
 */
export class MerchantDepositAddressUnique1767400000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE UNIQUE INDEX merchants_etransfer_email ON gateway.merchants (lower(etransfer_email)) WHERE etransfer_email IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX gateway.merchants_etransfer_email`);
  }
}
