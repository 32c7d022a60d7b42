import type { ListCheckoutSessionsQuery } from '@pp/contracts';
import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import type { Pool, PoolClient } from 'pg';
import { CheckoutSessionQueriesHandler, listCheckoutSessionsQuery, type SessionCursor } from './checkout-session-queries.handler';

/** A quarter million keeps the suite quick and the planner's choice the same; SESSIONS_LIST_ROWS=1000000 checks a larger size. */
const ROWS = Number(process.env.SESSIONS_LIST_ROWS ?? 250_000);

/** A value of a statement's parameter as an EXECUTE argument. */
const literal = (client: PoolClient, value: unknown): string =>
  value instanceof Date ? `${client.escapeLiteral(value.toISOString())}::timestamptz` : typeof value === 'string' ? client.escapeLiteral(value) : String(value);

/*
 * GET /v1/checkout/sessions at many sessions: a page, with or without a
 * status and a cursor, is read from an index in the list's order (never by
 * sorting every session of the merchant), even once the service's prepared
 * statement has come to a generic plan; a reference looked up without case
 * finds its exact match among any number of case variants. The plan is
 * asserted, never the time.
 */
describe(`a merchant's checkout sessions at ${ROWS} rows`, () => {
  let database: TestDatabase;
  let db: Pool;
  let handler: CheckoutSessionQueriesHandler;

  beforeAll(async () => {
    database = await createTestDatabase('sessionlists');
    await database.migrate('ledger');
    db = testPool(database.url, 2);
    handler = new CheckoutSessionQueriesHandler(db);
    // Two merchants: mer_1 live (odd rows), mer_0 in both modes. Four rows in turn share a time, so the id orders
    // sessions of one time. The newest thirty are PENDING; COMPLETED is rare for mer_1 (ten), common for mer_0.
    await db.query(
      `INSERT INTO ledger.checkout_sessions (id, merchant_id, livemode, amount, currency, reference, memo, status, client_secret, success_url,
         cancel_url, metadata, expires_at, created_at, version)
       SELECT 'cs_' || lpad(i::text, 22, '0'), CASE WHEN i % 2 = 1 THEN 'mer_1' ELSE 'mer_0' END, i % 2 = 1 OR i % 4 = 0, 1000 + i % 5000, 'CAD',
              'order-' || i, 'M' || i,
              CASE WHEN i <= 30 THEN 'PENDING' WHEN i % 25000 = 107 OR (i % 2 = 0 AND i % 3 = 0) THEN 'COMPLETED' ELSE 'EXPIRED' END,
              'secret_' || i, 'https://shop.example/ok', 'https://shop.example/cancel', NULL, at + interval '30 minutes', at, 1
       FROM generate_series(1, $1::int) AS i, LATERAL (SELECT date_trunc('milliseconds', now()) - ((i / 4) || ' seconds')::interval AS at) AS t`,
      [ROWS],
    );
    await db.query('ANALYZE ledger.checkout_sessions');
  }, 300_000);
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  const MERCHANT = { merchant_id: 'mer_1', livemode: true };

  /**
   * The plan of the list's statement once prepared and run six times: Postgres weighs a generic plan after the fifth, as
   * the services' statements run (PreparingClient). `force_generic_plan` asks for the generic plan itself, which only
   * the statement's text decides: one that wrote `$n IS NULL OR status = $n` would walk the merchant's listing.
   */
  const planAfterSixRuns = async (status: ListCheckoutSessionsQuery['status'], after: SessionCursor | null, mode: 'auto' | 'force_generic_plan'): Promise<string> => {
    const { text, values } = listCheckoutSessionsQuery({ ...MERCHANT, status }, after, 11, new Date());
    const client = await db.connect();
    try {
      await client.query(`SET plan_cache_mode = ${mode}`);
      await client.query(`PREPARE sessions_list AS ${text}`);
      const execute = `EXECUTE sessions_list(${values.map((value) => literal(client, value)).join(', ')})`;
      for (let run = 0; run < 6; run++) await client.query(execute);
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${execute}`);
      return JSON.stringify(rows[0]['QUERY PLAN']);
    } finally {
      await client.query('DEALLOCATE ALL');
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  };
  const cases = (cursors: Array<SessionCursor | null>) => cursors.flatMap((after) => (['auto', 'force_generic_plan'] as const).map((mode) => [after, mode] as const));
  const cursorOf = async (i: number): Promise<SessionCursor> =>
    (await db.query<SessionCursor>(`SELECT created_at, id FROM ledger.checkout_sessions WHERE id = $1`, [`cs_${String(i).padStart(22, '0')}`])).rows[0];

  it("lists a merchant's sessions newest first from checkout_sessions_listing, from the start and from a cursor, never sorting them, in a custom plan or a generic one", async () => {
    for (const [after, mode] of cases([null, await cursorOf(Math.floor(ROWS / 2) + 1)])) {
      const plan = await planAfterSixRuns(undefined, after, mode);
      expect(plan).toContain('checkout_sessions_listing');
      expect(plan).not.toMatch(/"Node Type":"(Seq Scan|Sort|Incremental Sort)"/);
    }
  });

  it('lists a status rare for the merchant from checkout_sessions_by_merchant_status, from the start and from a cursor, past the runs after which a prepared statement may turn generic, and in a generic plan', async () => {
    for (const [after, mode] of cases([null, await cursorOf(25107)])) {
      const plan = await planAfterSixRuns('COMPLETED', after, mode);
      expect(plan).toContain('checkout_sessions_by_merchant_status');
      expect(plan).not.toMatch(/"Node Type":"(Seq Scan|Sort|Incremental Sort)"/);
    }
    const { values } = listCheckoutSessionsQuery({ ...MERCHANT, status: 'COMPLETED' }, null, 11, new Date());
    expect(values).toEqual(['mer_1', true, 11, 'COMPLETED']);
  });

  it('given a page with more after it, when its last session is the cursor, then the next page follows it, sessions of one time ordered by id', async () => {
    const walk = async (query: Omit<ListCheckoutSessionsQuery, 'starting_after'>, enough: number): Promise<string[]> => {
      const ids: string[] = [];
      let page = await handler.list(query as ListCheckoutSessionsQuery);
      ids.push(...page.data.map((session) => session.id));
      while (page.has_more && ids.length < enough) {
        page = await handler.list({ ...query, starting_after: ids.at(-1) } as ListCheckoutSessionsQuery);
        ids.push(...page.data.map((session) => session.id));
      }
      return ids;
    };
    const expected = async (where: string, limit: number) =>
      (await db.query<{ id: string }>(`SELECT id FROM ledger.checkout_sessions WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit}`)).rows.map((row) => row.id);

    const completed = await walk({ ...MERCHANT, status: 'COMPLETED', limit: 3 }, Infinity);
    expect(completed).toEqual(await expected(`merchant_id = 'mer_1' AND livemode AND status = 'COMPLETED'`, 1000));
    expect(completed).toHaveLength(Math.floor((ROWS - 107) / 25000) + 1);
    expect(await walk({ merchant_id: 'mer_0', livemode: false, limit: 4 }, 20)).toEqual(await expected(`merchant_id = 'mer_0' AND NOT livemode`, 20));
    const all = await walk({ ...MERCHANT, limit: 5 }, 40);
    expect(all).toEqual(await expected(`merchant_id = 'mer_1' AND livemode`, 40));
    // Sessions of one time: ids 1 and 3 share theirs (with 2, of mer_0), so the id decides.
    expect((await db.query(`SELECT count(DISTINCT created_at) AS times FROM ledger.checkout_sessions WHERE id = ANY($1)`, [all.slice(0, 4)])).rows[0].times).toBe('2');
    await expect(handler.list({ ...MERCHANT, starting_after: `cs_${'2'.padStart(22, '0')}` } as ListCheckoutSessionsQuery)).rejects.toMatchObject({
      message: 'Checkout session not found',
    });
  });

  it('given PENDING sessions past their deadline that the sweep has not expired yet, then they read as EXPIRED, and listing PENDING leaves them out', async () => {
    await db.query(
      `INSERT INTO ledger.checkout_sessions (id, merchant_id, livemode, amount, currency, reference, memo, status, client_secret, success_url,
         cancel_url, metadata, expires_at, created_at, version)
       SELECT 'cs_due' || n, 'mer_due', true, 1000, 'CAD', 'due-' || n, 'MDUE' || n, 'PENDING', 'secret', 'https://shop.example/ok',
              'https://shop.example/cancel', NULL, now() + (n - 2) * interval '1 hour' - (n = 2)::int * interval '1 second', now() - interval '3 hours' + n * interval '1 minute', 1
       FROM generate_series(1, 3) AS n`,
    );
    const due = { merchant_id: 'mer_due', livemode: true };
    // cs_due1 is an hour past its deadline, cs_due2 a second past it (as a payment would find it); cs_due3's is an hour away.
    await expect(handler.get({ ...due, session_id: 'cs_due1' })).resolves.toMatchObject({ status: 'EXPIRED' });
    await expect(handler.get({ ...due, session_id: 'cs_due3' })).resolves.toMatchObject({ status: 'PENDING' });
    const listed = await handler.list(due as ListCheckoutSessionsQuery);
    expect(listed.data.map((session) => [session.id, session.status])).toEqual([['cs_due3', 'PENDING'], ['cs_due2', 'EXPIRED'], ['cs_due1', 'EXPIRED']]);
    const pending = await handler.list({ ...due, status: 'PENDING' } as ListCheckoutSessionsQuery);
    expect(pending.data.map((session) => session.id)).toEqual(['cs_due3']);
  });

  it('given 25 sessions whose references differ only in case, when each is looked up, then its exact match is found, and a further variant is ambiguous', async () => {
    // Every case of 'order-abcde' (32), the first 25 made in reverse, so the exact match of each lookup is not always among the first rows read.
    const variants = Array.from({ length: 32 }, (_, bits) => 'order-' + [...'abcde'].map((c, k) => (bits & (1 << k) ? c.toUpperCase() : c)).join(''));
    const made = variants.slice(0, 25).reverse();
    await db.query(
      `INSERT INTO ledger.checkout_sessions (id, merchant_id, livemode, amount, currency, reference, memo, status, client_secret, success_url,
         cancel_url, metadata, expires_at, created_at, version)
       SELECT 'cs_ref' || lpad(n::text, 2, '0'), 'mer_ref', true, 1000, 'CAD', reference, 'MREF' || n, 'PENDING', 'secret', 'https://shop.example/ok',
              'https://shop.example/cancel', NULL, now() + interval '30 minutes', now(), 1
       FROM unnest($1::text[]) WITH ORDINALITY AS made(reference, n)`,
      [made],
    );
    for (const [n, reference] of made.entries()) {
      await expect(handler.resolve({ merchant_id: 'mer_ref', livemode: true, reference })).resolves.toEqual({
        session_id: `cs_ref${String(n + 1).padStart(2, '0')}`,
        merchant_id: 'mer_ref',
        livemode: true,
      });
    }
    await expect(handler.resolve({ merchant_id: 'mer_ref', livemode: true, reference: variants[30] })).rejects.toMatchObject({
      message: 'Reference matches several checkout sessions when case is ignored; use sessionId',
    });
    await expect(handler.resolve({ merchant_id: 'mer_ref', livemode: false, reference: variants[0] })).rejects.toMatchObject({ message: 'Checkout session not found' });
  });
});
