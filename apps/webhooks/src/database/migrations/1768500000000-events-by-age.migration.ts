import { type ConcurrentIndex, createIndexesConcurrently, dropIndexesConcurrently } from '@pp/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events taken in, by their time: the delivery sweeper's catch-up of a
 * new endpoint (DeliveryRepository.catchUpNewEndpoints) reads the events
 * since its creation, a minute or two of them, rather than the whole table.
 * Built CONCURRENTLY, so events go on being taken in while a large table is
 * indexed.
 */
const INDEXES: readonly ConcurrentIndex[] = [['events_by_age', 'webhooks.events (created_at)']];

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
