import { ServiceMetrics } from '@pp/platform';
import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { countAwaitingReview, ReviewQueueMetrics } from './review-queue.metrics';

/*
 * The platform admins' review queue as the ledger's /metrics shows it, read from a real payments table: payments in
 * REQUIRES_MANUAL_REVIEW by mode, counted up to a limit in each mode, so a flood of them (a trusted-domain
 * mistake sending every notice to review) never makes a scrape walk the whole table.
 */
describe('review queue metrics (real Postgres)', () => {
  let database: TestDatabase;
  let db: Pool;
  let metrics: ServiceMetrics;

  beforeAll(async () => {
    database = await createTestDatabase('reviewqueue');
    await database.migrate('ledger');
    db = testPool(database.url, 2);
    metrics = new ServiceMetrics('ledger', { processMetrics: false });
    new ReviewQueueMetrics(db, metrics);
  });
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  /** Payments `from`..`to` (positions), in `status` and mode. */
  const payments = (from: number, to: number, status: string, livemode: boolean) =>
    db.query(
      `INSERT INTO ledger.payments (id, position, merchant_id, livemode, amount, sender_name, status, verification_method, review_reasons, created_at, updated_at, version)
       SELECT 'txn_' || lpad(n::text, 24, '0'), n, 'mer_r', $3, 2500, 'Payer', $4, 'email', '{}', now(), now(), 1
       FROM generate_series($1::int, $2::int) AS n`,
      [from, to, livemode, status],
    );

  const samples = async (): Promise<Record<string, number>> =>
    Object.fromEntries([...(await metrics.text()).matchAll(/^pp_payments_awaiting_review\{[^}]*mode="(\w+)"[^}]*\} (\S+)$/gm)].map(([, mode, value]) => [mode, Number(value)]));

  it('given no payment awaiting review, then both modes read 0', async () => {
    expect(await samples()).toEqual({ live: 0, test: 0 });
  });

  it('given payments awaiting review in both modes, confirmed ones beside them, then each mode counts its own', async () => {
    await payments(1, 3, 'REQUIRES_MANUAL_REVIEW', true);
    await payments(4, 5, 'REQUIRES_MANUAL_REVIEW', false);
    await payments(6, 9, 'CONFIRMED', true);
    expect(await samples()).toEqual({ live: 3, test: 2 });
  });

  it('given more awaiting review than the limit, then each mode counts up to the limit, however many the other has', async () => {
    // Test reviews any merchant can make in bulk (simulate-payment): they must not push the live ones out of the count.
    await payments(10, 19, 'REQUIRES_MANUAL_REVIEW', false);
    expect(await countAwaitingReview(db, 4)).toEqual({ live: 3, test: 4 });
    expect(await countAwaitingReview(db, 100)).toEqual({ live: 3, test: 12 });
  });

  it('counts each mode on the partial index of the queue, in a scan that stops at the limit', async () => {
    await db.query('ANALYZE ledger.payments');
    const client = await db.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off'); // the table is tiny here; the plan a large one gets
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT count(*) FROM (SELECT 1 FROM ledger.payments WHERE status = 'REQUIRES_MANUAL_REVIEW' AND livemode LIMIT 100000) AS l`,
      );
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Limit[\s\S]*Index Only Scan using payments_awaiting_review/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
