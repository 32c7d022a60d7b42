import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { listPaymentsQuery, type PaymentFilters } from './payment-queries.handler';

/** A quarter million keeps the suite quick and the planner's choice the same; PAYMENTS_SEARCH_ROWS=1000000 checks the full size. */
const ROWS = Number(process.env.PAYMENTS_SEARCH_ROWS ?? 250_000);
const TARGET = String(Math.floor(ROWS * 0.42) * 2 + 1); // an odd row, so merchant mer_1

/*
 * GET /v1/payments?reference= at many payments: the partial match must
 * be answered from the pg_trgm GIN index, not by reading the table; a rare
 * status from its own index, even once the service's prepared statement has
 * come to a generic plan. The plan is asserted, never the time.
 */
describe(`payments reference search at ${ROWS} rows`, () => {
  let database: TestDatabase;
  let db: Pool;

  beforeAll(async () => {
    database = await createTestDatabase('paysearch');
    await database.migrate('ledger');
    db = testPool(database.url, 1);
    // Loading a million rows is faster without the trigram index; it is rebuilt afterwards from its own definition.
    const { rows: index } = await db.query(`SELECT pg_get_indexdef('ledger.payments_search_trgm'::regclass) AS definition`);
    await db.query('DROP INDEX ledger.payments_search_trgm');
    // Two merchants, both modes; references, memos and comments that differ per row. A review is rare for mer_1 in
    // live mode (ten), common for mer_0 in test mode (one in six of its rows), as in the platform's review queue.
    await db.query(
      `INSERT INTO ledger.payments (id, position, merchant_id, livemode, session_id, session_reference, etransfer_ref, amount, sender_name,
         sender_email, comment, status, verification_method, review_reasons, created_at, updated_at, version)
       SELECT 'txn_' || lpad(i::text, 24, '0'), i, 'mer_' || (i % 2), i % 4 < 2, 'cs' || i, 'order-' || md5(i::text), 'PP-' || upper(substr(md5('m' || i), 1, 6)),
              1000 + i % 5000, 'Payer ' || i, NULL, 'invoice ' || i, CASE WHEN i % 25000 = 1 OR i % 12 = 6 THEN 'REQUIRES_MANUAL_REVIEW' WHEN i % 10 = 0 THEN 'FAILED' ELSE 'CONFIRMED' END, 'AUTO_EMAIL', '{}',
              now() - (i || ' seconds')::interval, now(), 1
       FROM generate_series(1, $1::int) AS i`,
      [ROWS],
    );
    await db.query(index[0].definition);
    await db.query('ANALYZE ledger.payments');
  }, 300_000);
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  const query = (filters: PaymentFilters) => listPaymentsQuery({ merchant_id: 'mer_1', livemode: true }, filters, 11);
  const list = async (filters: PaymentFilters) => {
    const { text, values } = query(filters);
    return (await db.query(text, values)).rows;
  };
  const planOf = async (filters: PaymentFilters): Promise<string> => {
    const { text, values } = query(filters);
    const { rows } = await db.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
    return JSON.stringify(rows[0]['QUERY PLAN']);
  };

  it('serves a partial reference match from the trigram index', async () => {
    const target = (await db.query(`SELECT session_reference FROM ledger.payments WHERE id = 'txn_' || lpad($1, 24, '0')`, [TARGET])).rows[0].session_reference as string;
    const fragment = target.slice(8, 20).toUpperCase();
    const plan = await planOf({ reference: fragment });
    expect(plan).toContain('payments_search_trgm');
    expect(plan).not.toMatch(/"Node Type":"Seq Scan"/);
    const rows = await list({ reference: fragment });
    expect(rows.map((row) => row.id)).toContain(`txn_${TARGET.padStart(24, '0')}`);
    expect(rows).toEqual(expect.arrayOf(expect.objectContaining({ merchant_id: 'mer_1', livemode: true })));
  });

  it('lists without a reference from an index in position order, never sorting the table', async () => {
    const plan = await planOf({});
    expect(plan).toMatch(/"Node Type":"Index Scan"/);
    expect(plan).not.toMatch(/"Node Type":"(Seq Scan|Sort)"/);
    expect(await list({})).toHaveLength(11);
  });

  it('lists a rare status from payments_by_merchant_status, past the runs after which a prepared statement may turn generic', async () => {
    const { text, values } = query({ status: 'REQUIRES_MANUAL_REVIEW' });
    const execute = `EXECUTE rare_status('mer_1', true, 11, 'REQUIRES_MANUAL_REVIEW')`;
    const client = await db.connect();
    try {
      // As the services' statements run (PreparingClient): Postgres weighs a generic plan after the fifth.
      await client.query(`PREPARE rare_status AS ${text}`);
      for (let run = 0; run < 6; run++) await client.query(execute);
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${execute}`);
      const plan = JSON.stringify(rows[0]['QUERY PLAN']);
      expect(plan).toContain('payments_by_merchant_status');
      expect(plan).not.toMatch(/"Node Type":"(Seq Scan|Sort)"/);
    } finally {
      await client.query('DEALLOCATE ALL');
      client.release();
    }
    expect(values).toEqual(['mer_1', true, 11, 'REQUIRES_MANUAL_REVIEW']);
    const rare = await list({ status: 'REQUIRES_MANUAL_REVIEW' });
    expect(rare).toHaveLength(10);
    expect(rare).toEqual(expect.arrayOf(expect.objectContaining({ merchant_id: 'mer_1', livemode: true, status: 'REQUIRES_MANUAL_REVIEW' })));
  });
});
