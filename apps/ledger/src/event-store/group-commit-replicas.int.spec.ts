import { type AppendStreamsRequest, DomainError, ErrorCode } from '@pp/contracts';
import { JsonLogger, ServiceMetrics } from '@pp/platform';
import { createTestDatabase, type TestDatabase, testPool, waitFor } from '@pp/testing';
import { Client, Pool } from 'pg';
import type { LedgerConfig } from '../ledger.config';
import { LEDGER_PROJECTIONS } from '../projections/ledger.projections';
import { AppendMetrics } from './append.metrics';
import { EventStore } from './event-store';
import { GroupCommitAppender } from './group-commit.appender';
import { LocalCommits } from './local-commits';

const appendTo = (...streamIds: string[]): AppendStreamsRequest => ({
  streams: streamIds.map((streamId) => ({ stream_id: streamId, expected_version: 0, events: [{ type: 'test.happened', schema_version: 1, data: {} }] })),
  metadata: { merchant_id: 'mer_replicas', livemode: false },
});

/*
 * Two ledger replicas, each with its own group commit, writing the same two
 * streams in opposite orders: the case that deadlocked in the scale-out spec
 * (each inserted its first stream, then waited on the other's uncommitted
 * row until Postgres failed one after its deadlock_timeout). A third
 * transaction holds both replicas in the middle of their inserts, so the
 * crossing is certain rather than a matter of timing. With the streams
 * locked in one order first, the second replica waits for the first's
 * commit instead, and Postgres counts no deadlock.
 */
describe('group commit: two replicas appending to the same streams', () => {
  let database: TestDatabase;
  let holder: Client;
  let db: Pool;
  const pools: Pool[] = [];
  const replicas: GroupCommitAppender[] = [];
  const store = new EventStore(LEDGER_PROJECTIONS);
  const metrics = new AppendMetrics(new ServiceMetrics('ledger', { processMetrics: false }));

  beforeAll(async () => {
    database = await createTestDatabase('replicas');
    await database.migrate('ledger');
    holder = new Client({ connectionString: database.url });
    await holder.connect();
    db = testPool(database.url, 1);
    const config = { LEDGER_APPEND_BATCH_MAX: 200, LEDGER_TEST_CRASH_AFTER_COMMIT: false } as LedgerConfig;
    for (const name of ['ledger-1', 'ledger-2']) {
      const pool = new Pool({ connectionString: database.url, max: 1, pipeline: true, application_name: name }); // as append-connection.ts
      pool.on('error', () => undefined); // as the service's: an idle connection the server ends is dropped, not fatal
      pools.push(pool);
      replicas.push(new GroupCommitAppender(pool, store, config, new JsonLogger(name, 'error', () => undefined), metrics, new LocalCommits()));
    }
  });
  afterAll(async () => {
    await Promise.all([holder?.end(), db?.end(), ...pools.map((pool) => pool.end())]);
    await database?.drop();
  });

  /** Backends of the replicas waiting on a lock (a row's, a transaction's or an advisory one). */
  const waiting = async (): Promise<number> =>
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'ledger-%' AND wait_event_type = 'Lock'`,
      )
    ).rows[0].n;

  /** Deadlocks Postgres broke in this database, once both replicas' backends have reported their counts. */
  async function deadlocks(): Promise<number> {
    for (const pool of pools) {
      await pool.query('SELECT pg_stat_force_next_flush()'); // reported as the backend goes idle after it
      await pool.query('SELECT 1');
    }
    return (await db.query<{ n: number }>('SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n;
  }

  it('given each replica is midway through writing both streams, in opposite orders, when they go on, then the first commits, the second is refused as a conflict, and Postgres breaks no deadlock', async () => {
    const before = await deadlocks();
    // The holder's uncommitted rows on x and y stop each replica after the stream it writes first.
    await holder.query('BEGIN');
    await store.appendStreams(holder, appendTo('rep-x', 'rep-y'), {});

    const first = replicas[0].appendStreams(appendTo('rep-a', 'rep-x', 'rep-b'), {});
    await waitFor('the first replica waiting on the holder', async () => (await waiting()) === 1);
    const second = replicas[1].appendStreams(appendTo('rep-b', 'rep-y', 'rep-a'), {});
    await waitFor('the second replica waiting too', async () => (await waiting()) === 2);
    await holder.query('ROLLBACK');
    const [won, lost] = await Promise.allSettled([first, second]);

    expect(won.status).toBe('fulfilled');
    expect(lost.status).toBe('rejected');
    const refusal = (lost as PromiseRejectedResult).reason as DomainError;
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal.code).toBe(ErrorCode.ConcurrencyConflict);
    const { rows } = await db.query<{ stream_id: string; version: number }>(
      `SELECT stream_id, version FROM ledger.events WHERE stream_id LIKE 'rep-%' ORDER BY stream_id`,
    );
    expect(rows).toEqual([
      { stream_id: 'rep-a', version: 1 },
      { stream_id: 'rep-b', version: 1 },
      { stream_id: 'rep-x', version: 1 },
    ]);
    expect(await deadlocks()).toBe(before);
  });
});
