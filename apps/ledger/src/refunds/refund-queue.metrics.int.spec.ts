import { ServiceMetrics } from '@pp/platform';
import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { RefundQueueMetrics } from './refund-queue.metrics';

/*
 * The operator's refund queue as the ledger's /metrics shows it, read from a
 * real refunds table: live refunds by open stage, and how long the oldest has
 * waited in its stage; test refunds and closed ones are not counted.
 */
describe('refund queue metrics (real Postgres)', () => {
  let database: TestDatabase;
  let db: Pool;
  let metrics: ServiceMetrics;

  beforeAll(async () => {
    database = await createTestDatabase('refundqueue');
    await database.migrate('ledger');
    db = testPool(database.url, 2);
    metrics = new ServiceMetrics('ledger', { processMetrics: false });
    new RefundQueueMetrics(db, metrics);
  });
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  /** A refund in `status`, `hours` into its stage (the stage's own time set, the earlier ones before it). */
  const refund = (n: number, status: string, hours: number, livemode = true) =>
    db.query(
      `INSERT INTO ledger.refunds (id, position, merchant_id, livemode, payment_id, amount, status, requested_by, reason, requested_at, approved_at, sent_at, completed_at, version)
       VALUES ($1, $2, 'mer_q', $3, $4, 2500, $5, 'key_1', NULL, now() - make_interval(hours => $6 + 10),
               CASE WHEN $5 IN ('APPROVED', 'SENT', 'COMPLETED') THEN now() - make_interval(hours => $6 + (CASE WHEN $5 = 'APPROVED' THEN 0 ELSE 5 END)) END,
               CASE WHEN $5 IN ('SENT', 'COMPLETED') THEN now() - make_interval(hours => $6) END,
               CASE WHEN $5 = 'COMPLETED' THEN now() END, 1)`,
      [`rf_${String(n).padStart(24, '0')}`, n, livemode, `txn_${String(n).padStart(24, '0')}`, status, hours],
    );

  const samples = async (name: string): Promise<Record<string, number>> =>
    Object.fromEntries(
      [...(await metrics.text()).matchAll(new RegExp(`^${name}\\{[^}]*stage="(\\w+)"[^}]*\\} (\\S+)$`, 'gm'))].map(([, stage, value]) => [stage, Number(value)]),
    );

  it('given no open live refund, then every open stage reads 0', async () => {
    expect(await samples('pp_refunds_open')).toEqual({ REQUESTED: 0, APPROVED: 0, SENT: 0 });
    expect(await samples('pp_refunds_open_oldest_seconds')).toEqual({ REQUESTED: 0, APPROVED: 0, SENT: 0 });
  });

  it('given live refunds in each stage, test and closed ones beside them, then each stage counts its live ones and ages its oldest in that stage', async () => {
    await refund(1, 'REQUESTED', 2);
    await refund(2, 'REQUESTED', 30);
    await refund(3, 'APPROVED', 48);
    await refund(4, 'SENT', 3);
    await refund(5, 'COMPLETED', 100);
    await refund(6, 'REQUESTED', 500, false);

    expect(await samples('pp_refunds_open')).toEqual({ REQUESTED: 2, APPROVED: 1, SENT: 1 });
    const oldest = await samples('pp_refunds_open_oldest_seconds');
    // Since the request (40 h: 30 h in the stage plus the 10 h before it the fixture gives every request), the approval, the marking sent.
    expect(Math.round(oldest.REQUESTED / 3600)).toBe(40);
    expect(Math.round(oldest.APPROVED / 3600)).toBe(48);
    expect(Math.round(oldest.SENT / 3600)).toBe(3);
  });
  it('given a scrape, then both gauges come from one query of the refunds', async () => {
    const query = jest.spyOn(db, 'query');
    try {
      await metrics.text();
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
  });
});
