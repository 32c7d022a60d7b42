import { Inject, Injectable } from '@nestjs/common';
import { PAYMENTS_AWAITING_REVIEW, ServiceMetrics } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

/**
 * Each mode's count stops here: a queue this long already needs a person (a trusted-domain or DKIM
 * mistake sending every notice to review), and each replica's scrape stays two bounded scans of the
 * payments_awaiting_review index (one per mode, so test-mode reviews, which any merchant can make, never push live
 * ones out of the live count).
 */
const REVIEW_COUNT_LIMIT = 100_000;

/** The platform admins' review queue, counted at each scrape on the payments_awaiting_review index. */
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

/** Payments awaiting review in each mode, up to `limit` each. */
export async function countAwaitingReview(pool: Pool, limit: number): Promise<{ live: number; test: number }> {
  const { rows } = await pool.query<{ live: string; test: string }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM ledger.payments WHERE status = 'REQUIRES_MANUAL_REVIEW' AND livemode LIMIT $1) AS l) AS live,
            (SELECT count(*) FROM (SELECT 1 FROM ledger.payments WHERE status = 'REQUIRES_MANUAL_REVIEW' AND NOT livemode LIMIT $1) AS t) AS test`,
    [limit],
  );
  return { live: Number(rows[0].live), test: Number(rows[0].test) };
}
