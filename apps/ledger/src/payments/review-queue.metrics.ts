import { Inject, Injectable } from '@nestjs/common';
import { PAYMENTS_AWAITING_REVIEW, ServiceMetrics } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

/** The platform admins' review queue, counted at each scrape on the payments-by-status index. */
@Injectable()
export class ReviewQueueMetrics {
  constructor(@Inject(LEDGER_POOL) pool: Pool, metrics: ServiceMetrics) {
    metrics.readAtScrape(PAYMENTS_AWAITING_REVIEW, async () => {
      const { rows } = await pool.query<{ livemode: boolean; count: string }>(
        `SELECT livemode, count(*) AS count FROM ledger.payments WHERE status = 'REQUIRES_MANUAL_REVIEW' GROUP BY livemode`,
      );
      const count = (livemode: boolean) => Number(rows.find((row) => row.livemode === livemode)?.count ?? 0);
      return [
        { labels: { mode: 'live' }, value: count(true) },
        { labels: { mode: 'test' }, value: count(false) },
      ];
    });
  }
}
