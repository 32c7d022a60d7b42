import type { MigrationInterface, QueryRunner } from 'typeorm';
import { type ConcurrentIndex, createIndexesConcurrently, dropIndexesConcurrently } from '@pp/platform';

/**
 * Indexes for a merchant's lists filtered by payment status, by event type and by payment (a payment's timeline):
 * without them each walks the merchant's whole listing index until its page is full, which for a large merchant and a
 * rare status reaches the statement timeout. Each list's statement holds only the filters asked for
 * (queries/list-filters.ts), so its prepared statement is planned for them (docs/ARCHITECTURE.md, "Read models").
 *
 * Built CONCURRENTLY, with the migrate step's lock timeout lifted for their statements, and a run again after a failed
 * attempt keeps what it built and rebuilds what it left invalid (createIndexesConcurrently).
 */
const INDEXES: readonly ConcurrentIndex[] = [
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
    await createIndexesConcurrently(db, 'ledger', INDEXES);
  }

  async down(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, 'ledger', INDEXES);
  }
}
