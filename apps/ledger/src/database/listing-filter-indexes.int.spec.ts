import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import { Client, type Pool } from 'pg';
import type { QueryRunner } from 'typeorm';
import { ListingFilterIndexes1767225600015 } from './migrations/1767225600015-listing-filter-indexes.migration';
import { RefundAndSessionListingIndexes1767225600016 } from './migrations/1767225600016-refund-and-session-listing-indexes.migration';

/*
 * The listing indexes are built CONCURRENTLY, outside a transaction, so a
 * failed attempt is not rolled back and the migrate step runs the migration
 * again from its start; and the build waits for every older transaction of
 * the database, longer than the step's lock timeout on a busy one. Each
 * migration that builds them (libs/platform concurrent-indexes.ts) is run again so.
 */
describe('the listing filter indexes migrations, run again', () => {
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

  const indexes = async (names: readonly string[]) =>
    (
      await admin.query(
        `SELECT c.relname AS name, i.indexrelid::int AS oid, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname = ANY($1::text[]) ORDER BY c.relname`,
        [names],
      )
    ).rows as Array<{ name: string; oid: number; valid: boolean }>;

  it.each([
    {
      migration: ListingFilterIndexes1767225600015,
      names: ['merchant_events_by_payment', 'merchant_events_by_type', 'payments_by_merchant_status'],
      cutShort: 'payments_by_merchant_status',
      table: 'ledger.payments',
    },
    {
      migration: RefundAndSessionListingIndexes1767225600016,
      names: ['checkout_sessions_by_merchant_status', 'checkout_sessions_listing', 'refunds_by_merchant_status'],
      cutShort: 'checkout_sessions_listing',
      table: 'ledger.checkout_sessions',
    },
  ])('$migration.name: given one index left invalid by a build cut short and a transaction older than the lock timeout, then it waits for that transaction, builds that index again, keeps the others, and leaves the session’s lock timeout as it was', async ({ migration, names, cutShort, table }) => {
    const before = await indexes(names);
    expect(before.map(({ name, valid }) => [name, valid])).toEqual(names.map((name) => [name, true]));
    // What a build cut short leaves behind: the index under its name, not valid.
    await admin.query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = $1::regclass`, [`ledger.${cutShort}`]);

    const older = new Client({ connectionString: database.url });
    const migrating = new Client({ connectionString: database.ownerUrl });
    await Promise.all([older.connect(), migrating.connect()]);
    try {
      await older.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await older.query(`SELECT count(*) FROM ${table}`); // holds its snapshot until it commits
      await migrating.query(`SET lock_timeout = '200ms'`);
      const runner = { query: async (sql: string, parameters?: unknown[]) => (await migrating.query(sql, parameters)).rows } as unknown as QueryRunner;
      const run = new migration().up(runner);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // five lock timeouts
      await older.query('COMMIT');
      await run;

      const after = await indexes(names);
      expect(after.every((index) => index.valid)).toBe(true);
      expect(after.find((index) => index.name === cutShort)!.oid).not.toBe(before.find((index) => index.name === cutShort)!.oid);
      expect(after.filter((index) => index.name !== cutShort)).toEqual(before.filter((index) => index.name !== cutShort));
      expect((await migrating.query('SHOW lock_timeout')).rows).toEqual([{ lock_timeout: '200ms' }]);
    } finally {
      await older.end();
      await migrating.end();
    }
  });
});
