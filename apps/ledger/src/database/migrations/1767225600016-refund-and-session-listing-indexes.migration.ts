import type { MigrationInterface, QueryRunner } from 'typeorm';
import { type ConcurrentIndex, createIndexesConcurrently, dropIndexesConcurrently } from '@pp/platform';

/**
 * Indexes for a merchant's refunds by status and its checkout sessions, as 1767225600015 made them for payments and
 * events. A merchant's refunds by status walked its whole refunds_listing (or every refund by position) until its page
 * was full, which for a status rare for it reaches the statement timeout; its refunds of one payment are served by
 * refunds_by_payment, and the operator's by status by refunds_by_status. A merchant's sessions, newest first by
 * (created_at, id), had no index in that order: every page read and sorted all its sessions. Each list's statement
 * holds only the filters asked for (queries/list-filters.ts), so its prepared statement is planned for them
 * (docs/ARCHITECTURE.md, "Read models").
 *
 * Built CONCURRENTLY, with the migrate step's lock timeout lifted for their statements, and a run again after a failed
 * attempt keeps what it built and rebuilds what it left invalid (createIndexesConcurrently).
 */
const INDEXES: readonly ConcurrentIndex[] = [
  ['refunds_by_merchant_status', 'ledger.refunds (merchant_id, livemode, status, position DESC)'],
  ['checkout_sessions_listing', 'ledger.checkout_sessions (merchant_id, livemode, created_at DESC, id DESC)'],
  ['checkout_sessions_by_merchant_status', 'ledger.checkout_sessions (merchant_id, livemode, status, created_at DESC, id DESC)'],
];

export class RefundAndSessionListingIndexes1767225600016 implements MigrationInterface {
  name = 'RefundAndSessionListingIndexes1767225600016';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'ledger', INDEXES);
  }

  async down(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, 'ledger', INDEXES);
  }
}
