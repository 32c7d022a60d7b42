import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An idempotency key can now cover an append to several streams (a payment
 * and the session it completes): the record keeps every stream's version
 * range, so a replay answers all of them. Older rows keep their one range.
 */
export class MultiStreamIdempotency1767225600003 implements MigrationInterface {
  name = 'MultiStreamIdempotency1767225600003';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ledger.idempotency_keys ADD COLUMN streams jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ledger.idempotency_keys DROP COLUMN streams`);
  }
}
