import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for a merchant's lists filtered by payment status, by event type and by payment (a payment's timeline):
 * without them each walks the merchant's whole listing index until its page is full, which for a large merchant and a
 * rare status reaches the statement timeout. The lists' statements are unnamed, so Postgres plans each with its values
 * and drops the `$n IS NULL OR` of a filter not given (docs/ARCHITECTURE.md, "Read models").
 *
 * Built CONCURRENTLY, so appends that project into these tables go on while a large table is indexed; that cannot run
 * in a transaction, so a failed attempt is not rolled back and the migration runs again from its start: an index an
 * earlier attempt built is kept, and one a build cut short left invalid is dropped and built again.
 *
 * The build waits for every transaction of the database older than it, a 30 s list query included, and Postgres counts
 * those as lock waits: the migrate step's 5 s lock timeout would end it on a busy database, each retry alike. This
 * migration lifts it for its own statements, which take only SHARE UPDATE EXCLUSIVE (no read or append waits for them).
 */
const INDEXES: ReadonlyArray<readonly [name: string, definition: string]> = [
  ['payments_by_merchant_status', 'ledger.payments (merchant_id, livemode, status, position DESC)'],
  ['merchant_events_by_type', 'ledger.merchant_events (merchant_id, livemode, type, position DESC)'],
  [
    'merchant_events_by_payment',
    `ledger.merchant_events (merchant_id, livemode, (data->>'payment_id'), position DESC) WHERE (data->>'payment_id') IS NOT NULL`,
  ],
];

export class ListingFilterIndexes1767225600015 implements MigrationInterface {
  name = 'ListingFilterIndexes1767225600015';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    const [{ lock_timeout: lockTimeout }] = (await db.query('SHOW lock_timeout')) as Array<{ lock_timeout: string }>;
    await db.query('SET lock_timeout = 0');
    try {
      for (const [name, definition] of INDEXES) {
        const [found] = (await db.query(`SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)`, [`ledger.${name}`])) as Array<{ valid: boolean }>;
        if (found?.valid) continue;
        if (found) await db.query(`DROP INDEX CONCURRENTLY ledger.${name}`);
        await db.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
      }
    } finally {
      await db.query(`SELECT set_config('lock_timeout', $1, false)`, [lockTimeout]);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const [name] of INDEXES) await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ledger.${name}`);
  }
}
