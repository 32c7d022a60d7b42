import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import { Client, type Pool } from 'pg';
import type { QueryRunner } from 'typeorm';
import { ListingFilterIndexes1767225600015 } from './migrations/1767225600015-listing-filter-indexes.migration';

/*
 * The listing indexes are built CONCURRENTLY, outside a transaction, so a
 * failed attempt is not rolled back and the migrate step runs the migration
 * again from its start; and the build waits for every older transaction of
 * the database, longer than the step's lock timeout on a busy one.
 */
describe('the listing filter indexes migration, run again', () => {
  let database: TestDatabase;
  let admin: Pool;

  beforeAll(async () => {
    database = await createTestDatabase('listidx');
    await database.migrate('ledger');
    admin = testPool(database.url, 2);
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  const indexes = async () =>
    (
      await admin.query(
        `SELECT c.relname AS name, i.indexrelid::int AS oid, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname IN ('payments_by_merchant_status', 'merchant_events_by_type', 'merchant_events_by_payment') ORDER BY c.relname`,
      )
    ).rows as Array<{ name: string; oid: number; valid: boolean }>;

  it('given one index left invalid by a build cut short and a transaction older than the lock timeout, then it waits for that transaction, builds that index again, keeps the others, and leaves the session’s lock timeout as it was', async () => {
    const before = await indexes();
    expect(before.map(({ name, valid }) => [name, valid])).toEqual([
      ['merchant_events_by_payment', true],
      ['merchant_events_by_type', true],
      ['payments_by_merchant_status', true],
    ]);
    // What a build cut short leaves behind: the index under its name, not valid.
    await admin.query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'ledger.payments_by_merchant_status'::regclass`);

    const older = new Client({ connectionString: database.url });
    const migrating = new Client({ connectionString: database.ownerUrl });
    await Promise.all([older.connect(), migrating.connect()]);
    try {
      await older.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await older.query('SELECT count(*) FROM ledger.payments'); // holds its snapshot until it commits
      await migrating.query(`SET lock_timeout = '200ms'`);
      const runner = { query: async (sql: string, parameters?: unknown[]) => (await migrating.query(sql, parameters)).rows } as unknown as QueryRunner;
      const run = new ListingFilterIndexes1767225600015().up(runner);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // five lock timeouts
      await older.query('COMMIT');
      await run;

      const after = await indexes();
      expect(after.every((index) => index.valid)).toBe(true);
      expect(after.find((index) => index.name === 'payments_by_merchant_status')!.oid).not.toBe(before.find((index) => index.name === 'payments_by_merchant_status')!.oid);
      expect(after.filter((index) => index.name !== 'payments_by_merchant_status')).toEqual(before.filter((index) => index.name !== 'payments_by_merchant_status'));
      expect((await migrating.query('SHOW lock_timeout')).rows).toEqual([{ lock_timeout: '200ms' }]);
    } finally {
      await older.end();
      await migrating.end();
    }
  });
});
