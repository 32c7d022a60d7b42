import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The processing sweeper reads only e-mails and outcomes newer than its
 * window (processing/sweep-window.ts) instead of the whole history: these
 * indexes let it start there.
 */
export class SweepByTime1767600000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX emails_received_at ON ingest.emails (received_at)`);
    await db.query(`CREATE INDEX email_outcomes_processed_at ON ingest.email_outcomes (processed_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ingest.email_outcomes_processed_at`);
    await db.query(`DROP INDEX ingest.emails_received_at`);
  }
}
