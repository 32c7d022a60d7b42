import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where the processing sweeper's windows (processing/sweep-window.ts) stood
 * after the last scan that completed, by any replica: a pod that starts
 * resumes there instead of reading the whole history. Not evidence, and not
 * append-only: a window's row is moved forward in place, never back
 * (processing/sweep-mark.repository.ts).
 */
export class SweepMarks1767700000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ingest.sweep_marks (
        -- the window: e-mails without an outcome, or outcomes whose hand-off never completed
        name text PRIMARY KEY CHECK (name IN ('unprocessed', 'handoff')),
        -- every row older than this was finished when a scan computed it
        since timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ingest.sweep_marks`);
  }
}
