import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { type DataSource, type MigrationInterface, QueryFailedError, type QueryRunner } from 'typeorm';
import { isLockNotAvailable } from '../database/pg-errors';
import type { ServiceDatabase } from '../database/service-database';
import { dataSourceFor } from './data-source';
import { type MigrationLockPolicy, MigrationLockTimeoutError, runMigrations } from './run-migrations';

// The launcher's Postgres (libs/platform cannot import @pp/testing, which reads the same variable).
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** What a run says once when another holds the migrate step's turn. */
const WAITING = 'waiting for another migrate run (a replica or another schema) to finish';
/** How long a test lets a run go before calling it hung: far past every policy below. */
const HUNG_AFTER_MS = 15_000;

/** A migration of the given name (ending in its 13-digit timestamp, as TypeORM requires) running the given statements. */
const migration = (name: string, ...statements: string[]): Function =>
  class implements MigrationInterface {
    name = name;
    async up(db: QueryRunner): Promise<void> {
      for (const statement of statements) await db.query(statement);
    }
    async down(): Promise<void> {}
  };

const createAccounts = (schema: string) => migration('CreateAccounts1700000000001', `CREATE TABLE ${schema}.accounts (id int PRIMARY KEY)`);
const addNote = (schema: string) => migration('AddAccountNote1700000000002', `ALTER TABLE ${schema}.accounts ADD COLUMN note text`);

/** A schema of the gateway's role (the launcher made pp_gateway) with the one table the migrations above create. */
const serviceDatabase = (schema: string, ...migrations: Function[]): ServiceDatabase => ({ service: 'gateway', schema, migrations, grants: { accounts: ['SELECT'] } });

/** What a run came to, without throwing: its answer, its error, or 'hung'. */
const outcomeOf = async (run: Promise<string[]>): Promise<string[] | Error | 'hung'> => {
  const hung = new AbortController();
  try {
    return await Promise.race([run.catch((error: Error) => error), sleep(HUNG_AFTER_MS, 'hung' as const, { signal: hung.signal })]);
  } finally {
    hung.abort(); // the timer ends with the run, so no timer outlives the spec
  }
};

describe('runMigrations under lock contention (lock_timeout and retries)', () => {
  const name = `pp_lockspec_${randomBytes(4).toString('hex')}`;
  const databaseUrl = (() => {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    return url.href;
  })();
  const admin = new Client({ connectionString: ADMIN_URL });
  let observer: Client;
  const opened: (DataSource | Client)[] = [];

  /** A migrate data source as migrateDatabase makes it (a pool of two), named in pg_stat_activity. */
  const open = async (database: ServiceDatabase, applicationName: string): Promise<DataSource> => {
    const dataSource = dataSourceFor(database, { url: databaseUrl, poolSize: 2, applicationName });
    opened.push(dataSource);
    return dataSource.initialize();
  };
  /** Another session on the test database, as a service's or a forgotten psql's. */
  const session = async (applicationName: string): Promise<Client> => {
    const client = new Client({ connectionString: databaseUrl, application_name: applicationName });
    opened.push(client);
    await client.connect();
    return client;
  };
  /** The locks the sessions of an application hold or wait for, as Postgres sees them. */
  const locksOf = async (applicationName: string): Promise<{ locktype: string; mode: string; granted: boolean }[]> =>
    (
      await observer.query(
        `SELECT l.locktype, l.mode, l.granted FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE a.application_name = $1 AND l.locktype IN ('relation', 'advisory')`,
        [applicationName],
      )
    ).rows;
  const waitFor = async (what: string, condition: () => Promise<boolean>): Promise<void> => {
    const deadline = performance.now() + 5_000;
    while (!(await condition())) {
      if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
      await sleep(10);
    }
  };
  const columnsOf = async (schema: string): Promise<string[]> =>
    (await observer.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'accounts' ORDER BY ordinal_position`, [schema])).rows.map(
      (row: { column_name: string }) => row.column_name,
    );
  const appliedIn = async (schema: string): Promise<string[]> =>
    (await observer.query(`SELECT name FROM ${schema}.migrations ORDER BY id`)).rows.map((row: { name: string }) => row.name);

  /** The schema with its accounts table only, migrated as the migrate step would. */
  const withAccountsTable = async (schema: string): Promise<void> => {
    const database = serviceDatabase(schema, createAccounts(schema));
    expect(await runMigrations(await open(database, `${schema}-setup`), database)).toEqual(['CreateAccounts1700000000001']);
  };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    observer = new Client({ connectionString: databaseUrl, application_name: 'lock-spec-observer' });
    await observer.connect();
  });
  afterEach(async () => {
    for (const each of opened.splice(0).reverse()) await (each instanceof Client ? each.end() : each.destroy()).catch(() => undefined);
  });
  afterAll(async () => {
    await observer.end();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('given a transaction holding a lock on the table, when a migration needs a conflicting one, then each attempt gives up after the lock timeout and lets the queries queued behind it through, and the step fails with lock_not_available naming the migration', async () => {
    const schema = 'lock_spec_blocked';
    await withAccountsTable(schema);
    const blocker = await session('lock-spec-blocker');
    await blocker.query('BEGIN');
    await blocker.query(`SELECT count(*) FROM ${schema}.accounts`); // ACCESS SHARE until the transaction ends: ALTER TABLE needs ACCESS EXCLUSIVE
    const database = serviceDatabase(schema, createAccounts(schema), addNote(schema));
    const dataSource = await open(database, 'lock-spec-migrate');
    const policy: MigrationLockPolicy = { lockTimeoutMs: 500, retryWaitsMs: [100, 100] };
    const logs: string[] = [];

    const started = performance.now();
    let settledAt = Infinity;
    const run = outcomeOf(runMigrations(dataSource, database, { lockPolicy: policy, log: (line) => logs.push(line) })).finally(() => (settledAt = performance.now()));
    // The migration's ALTER waits in the table's lock queue, and a reader that comes now queues behind it: the lock-queue outage.
    await waitFor('the migration to wait for its lock', async () => (await locksOf('lock-spec-migrate')).some((lock) => lock.mode === 'AccessExclusiveLock' && !lock.granted));
    const reader = await session('lock-spec-reader');
    let readAt = Infinity;
    const read = reader.query(`SELECT count(*) FROM ${schema}.accounts`).then(() => (readAt = performance.now()));
    await waitFor('the reader to queue behind the migration', async () => (await locksOf('lock-spec-reader')).some((lock) => lock.mode === 'AccessShareLock' && !lock.granted));

    const outcome = await run;
    expect(outcome).toBeInstanceOf(MigrationLockTimeoutError);
    expect(outcome).toMatchObject({ code: '55P03', blocked: 'migration AddAccountNote1700000000002', attempts: 3 });
    expect(isLockNotAvailable(outcome)).toBe(true);
    expect((outcome as Error).message).toContain(`statement: ALTER TABLE ${schema}.accounts ADD COLUMN note text`);
    expect((outcome as Error).message).toContain('canceling statement due to lock timeout');
    // Three waits of the lock timeout and the two pauses between them, then it stops: no hang.
    expect(settledAt - started).toBeGreaterThanOrEqual(3 * policy.lockTimeoutMs + 200 - 50);
    expect(settledAt - started).toBeLessThan(3 * policy.lockTimeoutMs + 200 + 2_000);
    expect(logs).toEqual([
      expect.stringMatching(/^migration AddAccountNote1700000000002 could not get a lock within 500 ms \(lock_timeout\) and was rolled back; statement: ALTER TABLE .*; attempt 2 of 3 in 100 ms$/),
      expect.stringMatching(/^migration AddAccountNote1700000000002 .*attempt 3 of 3 in 100 ms$/),
    ]);
    // The reader went on when the first attempt gave up, long before the step did, while the blocker still holds its lock.
    await read;
    expect(readAt).toBeLessThan(settledAt);
    expect(readAt - started).toBeLessThan(policy.lockTimeoutMs + 1_000);
    // Rolled back: the table and the migrations table are as before.
    expect(await columnsOf(schema)).toEqual(['id']);
    expect(await appliedIn(schema)).toEqual(['CreateAccounts1700000000001']);
    await blocker.query('ROLLBACK');
  });

  it('given the blocking transaction ends before the retries run out, then the migration is applied on the next attempt and the pool gets its sessions back without the lock timeout', async () => {
    const schema = 'lock_spec_released';
    await withAccountsTable(schema);
    const blocker = await session('lock-spec-blocker');
    await blocker.query('BEGIN');
    await blocker.query(`SELECT count(*) FROM ${schema}.accounts`);
    const database = serviceDatabase(schema, createAccounts(schema), addNote(schema));
    const dataSource = await open(database, 'lock-spec-migrate');
    const logs: string[] = [];

    // The blocker commits as soon as the first attempt has given up.
    const outcome = await outcomeOf(
      runMigrations(dataSource, database, {
        lockPolicy: { lockTimeoutMs: 300, retryWaitsMs: [500, 500, 500] },
        log: (line) => {
          logs.push(line);
          void blocker.query('COMMIT');
        },
      }),
    );

    expect(outcome).toEqual(['AddAccountNote1700000000002']);
    expect(logs).toEqual([expect.stringMatching(/^migration AddAccountNote1700000000002 could not get a lock within 300 ms .*attempt 2 of 4 in 500 ms$/)]);
    expect(await columnsOf(schema)).toEqual(['id', 'note']);
    expect(await appliedIn(schema)).toEqual(['CreateAccounts1700000000001', 'AddAccountNote1700000000002']);
    // Both connections the step used (the pool's two) show the server's lock_timeout again, not the step's.
    const [{ lock_timeout: serverDefault }] = (await observer.query('SHOW lock_timeout')).rows;
    const runners = [dataSource.createQueryRunner(), dataSource.createQueryRunner()];
    try {
      await Promise.all(runners.map((runner) => runner.connect()));
      expect(await Promise.all(runners.map(async (runner) => (await runner.query('SHOW lock_timeout'))[0].lock_timeout))).toEqual([serverDefault, serverDefault]);
    } finally {
      await Promise.all(runners.map((runner) => runner.release()));
    }
  });

  it('given another replica migrating, when a second run waits for the advisory lock far longer than the lock timeout (which the database sets too), then the wait is not cut and the second run finds nothing left to do', async () => {
    const schema = 'lock_spec_turns';
    const database = serviceDatabase(schema, createAccounts(schema), migration('SlowAccountIndex1700000000003', 'SELECT pg_sleep(1.5)', `CREATE INDEX accounts_by_id ON ${schema}.accounts (id)`));
    const policy: MigrationLockPolicy = { lockTimeoutMs: 100, retryWaitsMs: [] };
    const logs: string[] = [];
    await observer.query(`ALTER DATABASE "${name}" SET lock_timeout = '100ms'`); // for sessions opened from now on
    try {
      const first = await open(database, 'lock-spec-first');
      const second = await open(database, 'lock-spec-second');
      const firstRun = outcomeOf(runMigrations(first, database, { lockPolicy: policy, log: (line) => logs.push(line) }));
      await waitFor('the first run to hold the advisory lock', async () => (await locksOf('lock-spec-first')).some((lock) => lock.locktype === 'advisory' && lock.granted));
      const secondRun = outcomeOf(runMigrations(second, database, { lockPolicy: policy, log: (line) => logs.push(line) }));
      await waitFor('the second run to wait for its turn', async () => logs.includes(WAITING));
      const waitingFrom = performance.now();

      expect(await firstRun).toEqual(['CreateAccounts1700000000001', 'SlowAccountIndex1700000000003']);
      expect(await secondRun).toEqual([]);
      expect(performance.now() - waitingFrom).toBeGreaterThanOrEqual(5 * policy.lockTimeoutMs);
      expect(logs).toEqual([WAITING]);
    } finally {
      await observer.query(`ALTER DATABASE "${name}" RESET lock_timeout`);
    }
  });

  it('given a migration building an index CONCURRENTLY while another schema’s run waits for its turn, then neither waits for the other (the waiting run holds no snapshot) and both finish without a retry', async () => {
    const building = 'lock_spec_concurrently';
    const waiting = 'lock_spec_waiting';
    const buildIndex = class implements MigrationInterface {
      name = 'ConcurrentAccountIndex1700000000005';
      transaction = false;
      async up(db: QueryRunner): Promise<void> {
        await db.query('SELECT pg_sleep(0.5)'); // long enough for the other run to be waiting
        await db.query(`CREATE INDEX CONCURRENTLY accounts_by_id ON ${building}.accounts (id)`);
      }
      async down(): Promise<void> {}
    };
    const policy: MigrationLockPolicy = { lockTimeoutMs: 300, retryWaitsMs: [] };
    const buildingDatabase = serviceDatabase(building, createAccounts(building), buildIndex);
    const waitingDatabase = serviceDatabase(waiting, createAccounts(waiting));
    const logs: string[] = [];
    const first = await open(buildingDatabase, 'lock-spec-building');
    const second = await open(waitingDatabase, 'lock-spec-waiting');

    const firstRun = outcomeOf(runMigrations(first, buildingDatabase, { lockPolicy: policy, log: (line) => logs.push(`building: ${line}`) }));
    await waitFor('the first run to hold the advisory lock', async () => (await locksOf('lock-spec-building')).some((lock) => lock.locktype === 'advisory' && lock.granted));
    const secondRun = outcomeOf(runMigrations(second, waitingDatabase, { lockPolicy: policy, log: (line) => logs.push(`waiting: ${line}`) }));

    expect(await firstRun).toEqual(['CreateAccounts1700000000001', 'ConcurrentAccountIndex1700000000005']);
    expect(await secondRun).toEqual(['CreateAccounts1700000000001']);
    expect(logs).toEqual([`waiting: ${WAITING}`]);
    const { rows } = await observer.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = '${building}.accounts_by_id'::regclass`);
    expect(rows).toEqual([{ indisvalid: true }]);
  });

  it('given a migration failing on anything but a lock wait (a missing table, a statement timeout), then the step fails at once with that very error, as it did before lock timeouts', async () => {
    const policy: MigrationLockPolicy = { lockTimeoutMs: 300, retryWaitsMs: [1_000, 1_000] };
    for (const [schema, failing, code] of [
      ['lock_spec_missing', 'SELECT * FROM lock_spec_missing.no_such_table', '42P01'],
      ['lock_spec_slow', 'SET LOCAL statement_timeout = 50; SELECT pg_sleep(1)', '57014'],
    ] as const) {
      const database = serviceDatabase(schema, createAccounts(schema), migration('FailingMigration1700000000004', failing));
      const dataSource = await open(database, `${schema}-migrate`);
      const logs: string[] = [];
      const started = performance.now();
      const outcome = await outcomeOf(runMigrations(dataSource, database, { lockPolicy: policy, log: (line) => logs.push(line) }));

      expect(outcome).toBeInstanceOf(QueryFailedError);
      expect(outcome).toMatchObject({ code, query: failing });
      expect(logs).toEqual([]);
      expect(performance.now() - started).toBeLessThan(1_000); // no pause for a retry
      // The migrations before it committed, as transaction 'each' always did.
      expect(await appliedIn(schema)).toEqual(['CreateAccounts1700000000001']);
    }
  });
});
