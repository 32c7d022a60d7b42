import { type ConcurrentIndex, createIndexesConcurrently, dropIndexesConcurrently } from '@pp/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The endpoints by their time, and each merchant's and mode's events by
 * theirs: the delivery sweeper's catch-up of new endpoints
 * (DeliveryRepository.catchUpNewEndpoints), every round, reads the endpoints
 * of the last two minutes and, for each, its merchant's events of the minute
 * after it was made, rather than both tables whole. Built CONCURRENTLY, so
 * events go on being taken in while a large table is indexed.
 */
const INDEXES: readonly ConcurrentIndex[] = [
  ['endpoints_by_age', 'webhooks.endpoints (created_at)'],
  ['events_by_merchant_age', 'webhooks.events (merchant_id, livemode, created_at)'],
];

export class EventsByAge1768500000000 implements MigrationInterface {
  name = 'EventsByAge1768500000000';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'webhooks', INDEXES);
  }

  async down(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, 'webhooks', INDEXES);
  }
}
