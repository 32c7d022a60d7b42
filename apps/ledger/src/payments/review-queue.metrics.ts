import { Inject, Injectable } from '@nestjs/common';
import { PAYMENTS_AWAITING_REVIEW, ServiceMetrics } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

/**
 * Counting stops here, newest first: a queue this long already needs a person (a trusted-domain or DKIM mistake
 * sending every notice to review), and each replica's scrape stays one bounded scan of the payments-by-status index.
 */
export const REVIEW_COUNT_LIMIT = 100_000;

/** The platform admins' review queue, counted at each scrape on the payments-by-status index. */
@Injectable()
export class ReviewQueueMetrics {
  constructor(@Inject(LEDGER_POOL) pool: Pool, metrics: ServiceMetrics) {
    metrics.readAtScrape(PAYMENTS_AWAITING_REVIEW, async () => {
      const counts = await countAwaitingReview(pool, REVIEW_COUNT_LIMIT);
      return [
        { labels: { mode: 'live' }, value: counts.live },
        { labels: { mode: 'test' }, value: counts.test },
      ];
    });
  }
}

/** Payments awaiting review by mode, among the newest `limit` of them. */
export async function countAwaitingReview(pool: Pool, limit: number): Promise<{ live: number; test: number }> {
  const { rows } = await pool.query<{ livemode: boolean; count: string }>(
    `SELECT livemode, count(*) AS count FROM (
       SELECT livemode FROM ledger.payments WHERE status = 'REQUIRES_MANUAL_REVIEW' ORDER BY position DESC LIMIT $1
     ) AS newest GROUP BY livemode`,
    [limit],
  );
  const count = (livemode: boolean) => Number(rows.find((row) => row.livemode === livemode)?.count ?? 0);
  return { live: count(true), test: count(false) };
}
