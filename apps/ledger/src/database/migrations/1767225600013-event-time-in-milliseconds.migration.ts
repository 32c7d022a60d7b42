import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event's time is kept to the millisecond, as every time the service shows
 * or takes (docs/ARCHITECTURE.md): clock_timestamp() alone kept microseconds,
 * which the merchant events copy, so a bound given in milliseconds
 * (`created_since`, an event's own shown time) could fall between an event's
 * stored and shown times. Events stored before keep their microseconds.
 */
export class EventTimeInMilliseconds1767225600013 implements MigrationInterface {
  name = 'EventTimeInMilliseconds1767225600013';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ledger.events ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', clock_timestamp())`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ledger.events ALTER COLUMN created_at SET DEFAULT clock_timestamp()`);
  }
}
