import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The processing sweeper's windows: e-mails without an outcome, outcomes whose hand-off never completed. */
export type SweepWindowName = 'unprocessed' | 'handoff';

/**
 * Where each sweep window stood after the last scan that completed, by any
 * replica (ingest.sweep_marks): what a restarted sweeper resumes from.
 */
@Injectable()
export class SweepMarkRepository {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  /** The stored marks; a window no scan has marked yet is missing. */
  async load(): Promise<Map<SweepWindowName, Date>> {
    const rows: { name: SweepWindowName; since: Date }[] = await this.db.query(`SELECT name, since FROM ingest.sweep_marks`);
    return new Map(rows.map(({ name, since }) => [name, since]));
  }

  /**
   * Stores a window's mark unless a later one is stored already: a mark is a
   * lower bound (every older row was finished, and stays so), so a replica
   * whose scan ran behind another's never moves it back. One statement, so
   * replicas saving at once cannot lose the later mark.
   */
  async save(name: SweepWindowName, since: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO ingest.sweep_marks (name, since) VALUES ($1, $2::timestamptz)
       ON CONFLICT (name) DO UPDATE SET since = GREATEST(sweep_marks.since, EXCLUDED.since), updated_at = now()`,
      [name, since.toISOString()],
    );
  }
}
