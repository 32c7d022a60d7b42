import { type ConcurrentIndex, createIndexesConcurrently, dropIndexesConcurrently } from '@pp/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an endpoint's catch-up of the events it missed while it was created
 * was settled (DeliveryRepository.catchUpNewEndpoints; a disabling bounds
 * it since EndpointCatchUpUntil1768700000000, and settled it before): the
 * catch-up reads the endpoints not settled yet, however
 * long since their creation its rounds come (a two-minute window of
 * creation times missed an endpoint when no round ran within it).
 * Endpoints older than that window are settled as this runs. Replaces the
 * index on every endpoint's time, and drops `events_by_age`, an index a
 * first form of EventsByAge1768500000000 made and nothing reads. Each
 * statement may run again after a failure part way (no transaction: indexes
 * are built CONCURRENTLY).
 */
const INDEXES: readonly ConcurrentIndex[] = [
  ['endpoints_catching_up', 'webhooks.endpoints (created_at) WHERE caught_up_at IS NULL'],
  // Also made by EventsByAge1768500000000's final form; a database migrated with its first one lacks it.
  ['events_by_merchant_age', 'webhooks.events (merchant_id, livemode, created_at)'],
];

const REPLACED: readonly ConcurrentIndex[] = [
  ['endpoints_by_age', 'webhooks.endpoints (created_at)'],
  ['events_by_age', 'webhooks.events (created_at)'],
];

export class EndpointsCaughtUp1768600000000 implements MigrationInterface {
  name = 'EndpointsCaughtUp1768600000000';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.endpoints ADD COLUMN IF NOT EXISTS caught_up_at timestamptz`);
    await db.query(`UPDATE webhooks.endpoints SET caught_up_at = now() WHERE caught_up_at IS NULL AND created_at < now() - interval '2 minutes'`);
    await createIndexesConcurrently(db, 'webhooks', INDEXES);
    await dropIndexesConcurrently(db, 'webhooks', REPLACED);
  }

  async down(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'webhooks', REPLACED.slice(0, 1));
    await dropIndexesConcurrently(db, 'webhooks', INDEXES.slice(0, 1));
    await db.query(`ALTER TABLE webhooks.endpoints DROP COLUMN IF EXISTS caught_up_at`);
  }
}
