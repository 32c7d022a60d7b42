import type { MigrationInterface, QueryRunner } from 'typeorm';
import { type ConcurrentIndex, createIndexesConcurrently, dropIndexesConcurrently } from '@pp/platform';

/**
 * The payments awaiting review by mode, for the review-queue gauge (review-queue.metrics.ts), which counts each
 * mode's up to a limit: on payments_by_status a mode's count walked the other mode's rows too, so test-mode reviews
 * any merchant can make in bulk (simulate-payment) could push the live ones out of the count. Partial, so it holds
 * only the queue. Built CONCURRENTLY, as 1767225600015 explains.
 */
const INDEXES: readonly ConcurrentIndex[] = [['payments_awaiting_review', `ledger.payments (livemode) WHERE status = 'REQUIRES_MANUAL_REVIEW'`]];

export class PaymentsAwaitingReview1767225600017 implements MigrationInterface {
  name = 'PaymentsAwaitingReview1767225600017';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'ledger', INDEXES);
  }

  async down(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, 'ledger', INDEXES);
  }
}
