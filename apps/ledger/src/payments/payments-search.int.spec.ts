import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { containsPattern, LIST_PAYMENTS_SQL } from './payment-queries.handler';

/** A quarter million keeps the suite quick and the planner's choice the same; PAYMENTS_SEARCH_ROWS=1000000 checks the full size. */
const ROWS = Number(process.env.PAYMENTS_SEARCH_ROWS ?? 250_000);
const TARGET = String(Math.floor(ROWS * 0.42) * 2 + 1); // an odd row, so merchant mer_1

/*
 * GET /v1/payments?reference= at many payments: the partial match must
 * be answered from the pg_trgm GIN index, not by reading the table. The plan
 * is asserted, never the time.
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
    // Two merchants, both modes; references, memos and comments that differ per row.
    await db.query(
      `INSERT INTO ledger.payments (id, position, merchant_id, livemode, session_id, session_reference, etransfer_ref, amount, sender_name,
         sender_email, comment, status, verification_method, review_reasons, created_at, updated_at, version)
       SELECT 'txn_' || lpad(i::text, 24, '0'), i, 'mer_' || (i % 2), i % 4 < 2, 'cs' || i, 'order-' || md5(i::text), 'PP-' || upper(substr(md5('m' || i), 1, 6)),
              1000 + i % 5000, 'Payer ' || i, NULL, 'invoice ' || i, CASE WHEN i % 10 = 0 THEN 'FAILED' ELSE 'CONFIRMED' END, 'AUTO_EMAIL', '{}',
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

  const params = (reference: string | null) => ['mer_1', true, reference === null ? null : containsPattern(reference), null, null, 11];

  const planOf = async (reference: string | null): Promise<string> => {
    const { rows } = await db.query(`EXPLAIN (FORMAT JSON) ${LIST_PAYMENTS_SQL}`, params(reference));
    return JSON.stringify(rows[0]['QUERY PLAN']);
  };

  it('serves a partial reference match from the trigram index', async () => {
    const target = (await db.query(`SELECT session_reference FROM ledger.payments WHERE id = 'txn_' || lpad($1, 24, '0')`, [TARGET])).rows[0].session_reference as string;
    const fragment = target.slice(8, 20).toUpperCase();
    const plan = await planOf(fragment);
    expect(plan).toContain('payments_search_trgm');
    expect(plan).not.toMatch(/"Node Type":"Seq Scan"/);
    const { rows } = await db.query(LIST_PAYMENTS_SQL, params(fragment));
    expect(rows.map((row) => row.id)).toContain(`txn_${TARGET.padStart(24, '0')}`);
    expect(rows).toEqual(expect.arrayOf(expect.objectContaining({ merchant_id: 'mer_1', livemode: true })));
  });

  it('lists without a reference from an index in position order, never sorting the table', async () => {
    const plan = await planOf(null);
    expect(plan).toMatch(/"Node Type":"Index Scan"/);
    expect(plan).not.toMatch(/"Node Type":"(Seq Scan|Sort)"/);
    const { rows } = await db.query(LIST_PAYMENTS_SQL, params(null));
    expect(rows).toHaveLength(11);
  });
});
