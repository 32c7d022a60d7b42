import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for a merchant's lists filtered by payment status, by event type and by payment (a payment's timeline):
 * without them each walks the merchant's whole listing index until its page is full, which for a large merchant and a
 * rare status reaches the statement timeout. The lists' statements are unnamed, so Postgres plans each with its values
 * and drops the `$n IS NULL OR` of a filter not given (docs/ARCHITECTURE.md, "Read models").
 *
 * Built CONCURRENTLY, so appends that project into these tables go on while a large table is indexed; that cannot run
 * in a transaction. A build cut short leaves an invalid index under its name, so each is dropped first: the migration
 * runs again from its start.
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
    for (const [name, definition] of INDEXES) {
      await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ledger.${name}`);
      await db.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const [name] of INDEXES) await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ledger.${name}`);
  }
}
