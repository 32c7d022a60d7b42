import type { AdminListRefundsParams, ListRefundsQuery } from '@pp/contracts';
import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import type { Pool, PoolClient } from 'pg';
import { listRefundsQuery, type RefundFilters, RefundQueriesHandler, type RefundScope } from './refund-queries.handler';

/** A quarter million keeps the suite quick and the planner's choice the same; REFUNDS_LIST_ROWS=1000000 checks a larger size. */
const ROWS = Number(process.env.REFUNDS_LIST_ROWS ?? 250_000);

/** A value of a statement's parameter as an EXECUTE argument. */
const literal = (client: PoolClient, value: unknown): string => (typeof value === 'string' ? client.escapeLiteral(value) : String(value));

/*
 * GET /v1/refunds and GET /v1/admin/refunds at many refunds: a status rare
 * for the merchant (and common for another) is read from its own index, a
 * payment's refunds and the operator's by status from theirs, even once the
 * service's prepared statement has come to a generic plan. The plan is
 * asserted, never the time.
 */
describe(`a merchant's and the operator's refund lists at ${ROWS} rows`, () => {
  let database: TestDatabase;
  let db: Pool;
  let handler: RefundQueriesHandler;

  beforeAll(async () => {
    database = await createTestDatabase('refundlists');
    await database.migrate('ledger');
    db = testPool(database.url, 2);
    handler = new RefundQueriesHandler(db);
    // Two merchants, both modes, one refund per payment. A refund waiting for the operator (REQUESTED) is rare for
    // mer_1 in live mode (ten), common for mer_0 in test mode (one in six of its rows); an APPROVED one rare for all.
    await db.query(
      `INSERT INTO ledger.refunds (id, position, merchant_id, livemode, payment_id, amount, status, requested_by, reason, requested_at, version)
       SELECT 'rf_' || lpad(i::text, 24, '0'), i, 'mer_' || (i % 2), i % 4 < 2, 'txn_' || lpad(i::text, 24, '0'), 1000 + i % 5000,
              CASE WHEN i % 25000 = 1 OR i % 12 = 6 THEN 'REQUESTED' WHEN i % 50000 = 3 THEN 'APPROVED' WHEN i % 10 = 0 THEN 'REJECTED' ELSE 'COMPLETED' END,
              'usr_' || (i % 50), NULL, now() - ((2 * $1::int - i) || ' seconds')::interval, 1
       FROM generate_series(1, $1::int) AS i`,
      [ROWS],
    );
    await db.query('ANALYZE ledger.refunds');
  }, 300_000);
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  const MERCHANT: RefundScope = { merchant_id: 'mer_1', livemode: true };

  /**
   * The plan of the list's statement once prepared and run six times: Postgres weighs a generic plan after the fifth, as
   * the services' statements run (PreparingClient), and keeps the custom plan here, which costs far less. (A generic
   * plan, forced, would walk refunds_position_key backwards: Postgres guesses that `LIMIT $1` wants a tenth of the rows.)
   */
  const planAfterSixRuns = async (scope: RefundScope, filters: RefundFilters): Promise<string> => {
    const { text, values } = listRefundsQuery(scope, filters, 11);
    const client = await db.connect();
    try {
      await client.query(`PREPARE refunds_list AS ${text}`);
      const execute = `EXECUTE refunds_list(${values.map((value) => literal(client, value)).join(', ')})`;
      for (let run = 0; run < 6; run++) await client.query(execute);
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${execute}`);
      return JSON.stringify(rows[0]['QUERY PLAN']);
    } finally {
      await client.query('DEALLOCATE ALL');
      client.release();
    }
  };

  it('lists a status rare for the merchant from refunds_by_merchant_status, past the runs after which a prepared statement may turn generic', async () => {
    const plan = await planAfterSixRuns(MERCHANT, { status: 'REQUESTED' });
    expect(plan).toContain('refunds_by_merchant_status');
    expect(plan).not.toMatch(/"Node Type":"(Seq Scan|Sort)"/);
    const { values } = listRefundsQuery(MERCHANT, { status: 'REQUESTED' }, 11);
    expect(values).toEqual([11, 'mer_1', true, 'REQUESTED']);

    const page = await handler.list({ merchant_id: 'mer_1', livemode: true, status: 'REQUESTED', limit: 100 } as ListRefundsQuery);
    expect(page.data).toHaveLength(Math.ceil(ROWS / 25000));
    expect(page.data).toEqual(expect.arrayOf(expect.objectContaining({ merchant_id: 'mer_1', livemode: true, status: 'REQUESTED' })));
  });

  it("lists a payment's refunds from refunds_by_payment, and the operator's by a status from refunds_by_status", async () => {
    const payment = `txn_${'25001'.padStart(24, '0')}`;
    const byPayment = await planAfterSixRuns(MERCHANT, { payment_id: payment });
    expect(byPayment).toContain('refunds_by_payment');
    expect(byPayment).not.toMatch(/"Node Type":"(Seq Scan|Sort)"/);
    const operator = await planAfterSixRuns(null, { status: 'APPROVED' });
    expect(operator).toContain('refunds_by_status');
    expect(operator).not.toMatch(/"Node Type":"(Seq Scan|Sort)"/);

    expect((await handler.list({ merchant_id: 'mer_1', livemode: true, payment_id: payment } as ListRefundsQuery)).data.map((refund) => refund.id)).toEqual([
      `rf_${'25001'.padStart(24, '0')}`,
    ]);
    expect((await handler.adminList({ status: 'APPROVED', limit: 100 } as AdminListRefundsParams)).data.map((refund) => [refund.merchant_id, refund.status])).toEqual(
      Array.from({ length: Math.floor((ROWS - 3) / 50000) + 1 }, () => ['mer_1', 'APPROVED']),
    );
  });

  it('given a page with more after it, when its last refund is the cursor, then the next page follows it, for a merchant and for the operator alike', async () => {
    const walk = async (list: (starting_after?: string) => Promise<{ data: Array<{ id: string }>; has_more: boolean }>): Promise<string[]> => {
      const ids: string[] = [];
      let page = await list();
      ids.push(...page.data.map((refund) => refund.id));
      while (page.has_more) {
        page = await list(ids.at(-1));
        ids.push(...page.data.map((refund) => refund.id));
      }
      return ids;
    };
    const expected = async (where: string, values: unknown[]) =>
      (await db.query<{ id: string }>(`SELECT id FROM ledger.refunds WHERE ${where} ORDER BY position DESC`, values)).rows.map((row) => row.id);

    expect(await walk((starting_after) => handler.list({ merchant_id: 'mer_1', livemode: true, status: 'REQUESTED', limit: 3, starting_after } as ListRefundsQuery))).toEqual(
      await expected(`merchant_id = 'mer_1' AND livemode AND status = 'REQUESTED'`, []),
    );
    expect(await walk((starting_after) => handler.adminList({ status: 'APPROVED', limit: 1, starting_after } as AdminListRefundsParams))).toEqual(
      await expected(`status = 'APPROVED'`, []),
    );
    const newest = await handler.list({ merchant_id: 'mer_0', livemode: false, limit: 4 } as ListRefundsQuery);
    expect(newest.data.map((refund) => refund.id)).toEqual((await expected(`merchant_id = 'mer_0' AND NOT livemode`, [])).slice(0, 4));
    expect(newest.has_more).toBe(true);
    // A refund of another merchant or mode is no cursor for this one's list.
    await expect(handler.list({ merchant_id: 'mer_1', livemode: true, starting_after: newest.data[0].id } as ListRefundsQuery)).rejects.toMatchObject({ message: 'Refund not found' });
  });
});
