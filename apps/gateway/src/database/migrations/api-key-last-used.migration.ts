import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When a key last authenticated a request, to the minute (the Developers page shows it; ApiKeyUsage writes it). */
export class ApiKeyLastUsed1767700000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.api_keys ADD COLUMN last_used_at timestamptz(3)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.api_keys DROP COLUMN last_used_at`);
  }
}
