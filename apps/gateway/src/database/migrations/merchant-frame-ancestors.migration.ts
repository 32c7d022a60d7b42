import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Origins a merchant allows to frame its embedded checkout (CSP frame-ancestors of the checkout frame). */
export class MerchantFrameAncestors1767300000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.merchants ADD COLUMN frame_ancestors text[] NOT NULL DEFAULT '{}'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.merchants DROP COLUMN frame_ancestors`);
  }
}
