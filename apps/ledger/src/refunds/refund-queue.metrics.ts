import { Inject, Injectable } from '@nestjs/common';
import { REFUNDS_OPEN, REFUNDS_OPEN_OLDEST_SECONDS, ServiceMetrics } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

/** The stages a live refund waits in for the platform operator (test refunds pass them all at once). */
export const OPEN_REFUND_STAGES = ['REQUESTED', 'APPROVED', 'SENT'] as const;

/**
 * The operator's refund queue, read at each scrape from the refunds by
 * status: how many live refunds wait in each open stage, and how long the
 * oldest has waited there (since its request, approval or marking sent).
 * Every open refund holds its payment, and a forgotten one is money a
 * customer is owed (docs/OPERATIONS.md, RefundWaiting).
 */
@Injectable()
export class RefundQueueMetrics {
  constructor(@Inject(LEDGER_POOL) pool: Pool, metrics: ServiceMetrics) {
    metrics.readAtScrapeTogether({ count: REFUNDS_OPEN, oldest: REFUNDS_OPEN_OLDEST_SECONDS }, async () => {
      const open = await openRefunds(pool);
      const byStage = (field: 'count' | 'oldest') => OPEN_REFUND_STAGES.map((stage) => ({ labels: { stage }, value: open.get(stage)?.[field] ?? 0 }));
      return { count: byStage('count'), oldest: byStage('oldest') };
    });
  }
}

async function openRefunds(pool: Pool): Promise<Map<string, { count: number; oldest: number }>> {
  const { rows } = await pool.query<{ status: string; count: string; oldest: number }>(
    `SELECT status, count(*) AS count,
            extract(epoch FROM now() - min(CASE status WHEN 'REQUESTED' THEN requested_at WHEN 'APPROVED' THEN approved_at ELSE sent_at END))::float8 AS oldest
       FROM ledger.refunds
      WHERE status = ANY ($1::text[]) AND livemode
      GROUP BY status`,
    [OPEN_REFUND_STAGES],
  );
  return new Map(rows.map((row) => [row.status, { count: Number(row.count), oldest: Math.max(0, row.oldest ?? 0) }]));
}
