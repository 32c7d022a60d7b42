import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A resend asked for while an attempt of the delivery is in flight: the
 * attempt's outcome would otherwise close the delivery over it and the
 * resend would be lost (docs/ARCHITECTURE.md, Webhook delivery). The next
 * claim clears it.
 */
export class ResendRequested1767700000000 implements MigrationInterface {
  name = 'ResendRequested1767700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.deliveries ADD COLUMN resend_requested boolean NOT NULL DEFAULT false`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.deliveries DROP COLUMN resend_requested`);
  }
}
