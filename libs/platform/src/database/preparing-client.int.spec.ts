import type { Client } from 'pg';
import { MAX_PREPARED_PER_CONNECTION, PreparingClient, statementName } from './preparing-client';
import { dataSourceFor } from '../typeorm/data-source';

// The launcher's Postgres (libs/platform cannot import @pp/testing, which reads the same variable).
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** What this connection's server session holds prepared, by statement text. */
const preparedTexts = async (client: Client): Promise<string[]> =>
  (await client.query('SELECT statement FROM pg_prepared_statements ORDER BY statement')).rows.map((row: { statement: string }) => row.statement);

describe('PreparingClient', () => {
  // Typed as the base class, as the pool that creates it uses it.
  let client: Client;

  beforeEach(async () => {
    client = new PreparingClient({ connectionString: ADMIN_URL });
    await client.connect();
  });
  afterEach(async () => {
    await client.end();
  });

  it('given a parameterized statement run twice, then the session prepared it once and both runs answer from their own values', async () => {
    const text = 'SELECT $1::int + 1 AS n';
    const first = await client.query(text, [1]);
    const second = await client.query(text, [41]);

    expect(first.rows).toEqual([{ n: 2 }]);
    expect(second.rows).toEqual([{ n: 42 }]);
    expect(await preparedTexts(client)).toEqual([text]);
  });

  it('given the callback form TypeORM uses, then it answers through the callback from a prepared statement', async () => {
    const text = "SELECT $1::text || '!' AS shout";
    const rows = await new Promise((resolve, reject) =>
      (client.query as unknown as (text: string, values: unknown[], cb: (error: Error | null, result: { rows: unknown[] }) => void) => void)(
        text,
        ['hey'],
        (error, result) => (error ? reject(error) : resolve(result.rows)),
      ),
    );

    expect(rows).toEqual([{ shout: 'hey!' }]);
    expect(await preparedTexts(client)).toEqual([text]);
  });

  it('given text without values (a multi-statement string), then it runs on the simple protocol and nothing is prepared', async () => {
    await client.query('BEGIN; SELECT 1; COMMIT');
    await client.query('SELECT 1', []);

    expect(await preparedTexts(client)).toEqual([]);
  });

  it('given a statement that fails, then the error reaches the caller and the connection goes on working', async () => {
    await expect(client.query('SELECT $1::int / 0', [1])).rejects.toThrow(/division by zero/);

    expect((await client.query('SELECT $1::int AS n', [7])).rows).toEqual([{ n: 7 }]);
  });

  it('given more distinct texts than the per-connection bound, then the rest run unnamed and the session keeps the bound', async () => {
    const texts = Array.from({ length: MAX_PREPARED_PER_CONNECTION + 5 }, (_, i) => `SELECT $1::int + ${i} AS n`);
    for (const [i, text] of texts.entries()) expect((await client.query(text, [1])).rows).toEqual([{ n: 1 + i }]);

    const prepared = await preparedTexts(client);
    expect(prepared).toHaveLength(MAX_PREPARED_PER_CONNECTION);
    expect(prepared).not.toContain(texts.at(-1));
  });

  it('given a prepared statement answering whole rows, when a migration adds a column, then one run fails and the connection then runs it unnamed', async () => {
    const table = `public.whole_rows_${process.pid}_${Date.now()}`;
    await client.query(`CREATE TABLE ${table} (id int PRIMARY KEY)`);
    try {
      await client.query(`INSERT INTO ${table} VALUES (1)`);
      const text = `SELECT * FROM ${table} WHERE id = $1`;
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1 }]);
      await client.query(`ALTER TABLE ${table} ADD COLUMN note text`);
      await expect(client.query(text, [1])).rejects.toMatchObject({ code: '0A000' });
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, note: null }]);
      // The callback form heals the same way.
      await client.query(`ALTER TABLE ${table} ADD COLUMN more text`);
      const callbackText = `SELECT * FROM ${table} WHERE id = $1 AND true`;
      expect((await client.query(callbackText, [1])).rows).toEqual([{ id: 1, note: null, more: null }]);
      await client.query(`ALTER TABLE ${table} ADD COLUMN last text`);
      const viaCallback = (): Promise<unknown> =>
        new Promise((resolve, reject) => client.query(callbackText, [1], (error: Error | null, result: { rows: unknown[] }) => (error ? reject(error) : resolve(result.rows))));
      await expect(viaCallback()).rejects.toMatchObject({ code: '0A000' });
      expect(await viaCallback()).toEqual([{ id: 1, note: null, more: null, last: null }]);
    } finally {
      await client.query(`DROP TABLE ${table}`);
    }
  });

  it('given two texts, then their names differ, and one text always has the same name', () => {
    expect(statementName('SELECT $1::int')).toBe(statementName('SELECT $1::int'));
    expect(statementName('SELECT $1::int')).not.toBe(statementName('SELECT $1::bigint'));
  });

  it('given a statement, then its name says what it does and where (a trace shows it as the span name), within 63 bytes', () => {
    expect(statementName('INSERT INTO ledger.events (id) VALUES ($1)')).toMatch(/^INSERT ledger\.events#[\w-]{12}$/);
    expect(statementName('  with given AS (SELECT * FROM unnest($1::text[])) UPDATE webhooks.deliveries d SET x = 1')).toMatch(/^WITH webhooks\.deliveries#/);
    expect(statementName('SELECT $1::int + 1')).toMatch(/^SELECT#/);
    const long = `SELECT 1 FROM ${'a'.repeat(60)}.${'b'.repeat(60)} WHERE x = $1`;
    expect(Buffer.byteLength(statementName(long)!)).toBeLessThanOrEqual(63);
  });
});

describe('dataSourceFor with prepareStatements', () => {
  it('given a service pool, then its parameterized queries are prepared on the connection that ran them', async () => {
    const dataSource = dataSourceFor(
      { service: 'gateway', schema: 'public', migrations: [], grants: {} },
      { url: ADMIN_URL, poolSize: 1, applicationName: 'preparing-client-spec', prepareStatements: true },
    );
    await dataSource.initialize();
    try {
      const text = 'SELECT $1::text AS echoed';
      expect(await dataSource.query(text, ['a'])).toEqual([{ echoed: 'a' }]);
      expect(await dataSource.query(text, ['b'])).toEqual([{ echoed: 'b' }]);

      const prepared: { statement: string }[] = await dataSource.query('SELECT statement FROM pg_prepared_statements');
      expect(prepared.map((row) => row.statement)).toContain(text);
    } finally {
      await dataSource.destroy();
    }
  });
});

describe('PreparingClient on a pipelined connection', () => {
  let client: Client;
  let writes: number;

  beforeEach(async () => {
    client = new PreparingClient({ connectionString: ADMIN_URL, pipeline: true } as ConstructorParameters<typeof PreparingClient>[0]);
    await client.connect();
    // Every system call the socket makes goes through one of these two (net.Socket's Writable implementation).
    const socket = (client as unknown as { connection: { stream: { _write: Function; _writev: Function } } }).connection.stream;
    writes = 0;
    for (const method of ['_write', '_writev'] as const) {
      const original = socket[method];
      socket[method] = function (this: unknown, ...args: unknown[]) {
        writes += 1;
        return original.apply(this, args);
      };
    }
  });
  afterEach(async () => {
    await client.end();
  });

  it('given statements issued in one tick, then they reach the server in one write and each gets its own answer, in order', async () => {
    const answers = Promise.all([
      client.query('BEGIN'),
      client.query('SELECT $1::int AS n', [1]),
      client.query('SELECT $1::text AS s', ['two']),
      client.query('SELECT $1::int * 3 AS n', [3]),
      client.query('COMMIT'),
    ]);
    const [, one, two, three] = await answers;

    expect(writes).toBe(1);
    expect([one.rows, two.rows, three.rows]).toEqual([[{ n: 1 }], [{ s: 'two' }], [{ n: 9 }]]);
  });

  it('given statements issued in separate ticks, then each tick is its own write and a failing statement fails alone', async () => {
    await client.query('SELECT $1::int AS n', [1]);
    const failing = client.query('SELECT $1::int / 0', [1]);
    await expect(failing).rejects.toThrow(/division by zero/);
    const after = await client.query('SELECT $1::int AS n', [2]);

    expect(writes).toBe(3);
    expect(after.rows).toEqual([{ n: 2 }]);
  });
});
