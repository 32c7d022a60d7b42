import { type AppendStreamsRequest, DomainError, ErrorCode } from '@pp/contracts';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { Client } from 'pg';
import { LEDGER_PROJECTIONS } from '../projections/ledger.projections';
import { EventStore } from './event-store';

const appendTo = (streamId: string): AppendStreamsRequest => ({
  streams: [{ stream_id: streamId, expected_version: 0, events: [{ type: 'test.happened', schema_version: 1, data: {} }] }],
  metadata: { merchant_id: 'mer_deadlock', livemode: false },
});

/*
 * Two ledger replicas each hold a group-commit transaction. When their
 * batches write the same two streams in opposite orders, each waits on the
 * other's uncommitted row and Postgres fails one statement to break the
 * deadlock. That append lost a race: it is answered as a concurrency
 * conflict, which its writer retries from fresh reads, not as an internal
 * error.
 */
describe('event store: appends that deadlock across two transactions', () => {
  let database: TestDatabase;
  let first: Client;
  let second: Client;
  const store = new EventStore(LEDGER_PROJECTIONS);

  beforeAll(async () => {
    database = await createTestDatabase('deadlock');
    await database.migrate('ledger');
    first = new Client({ connectionString: database.url });
    second = new Client({ connectionString: database.url });
    await Promise.all([first.connect(), second.connect()]);
  });
  afterAll(async () => {
    await Promise.all([first?.end(), second?.end()]);
    await database?.drop();
  });

  it('given each transaction holds one stream, when each appends to the other\'s, then one fails with CONCURRENCY_CONFLICT and the other commits', async () => {
    await first.query('BEGIN');
    await second.query('BEGIN');
    await store.appendStreams(first, appendTo('dl-a'), {});
    await store.appendStreams(second, appendTo('dl-b'), {});

    const settled = await Promise.allSettled([store.appendStreams(first, appendTo('dl-b'), {}), store.appendStreams(second, appendTo('dl-a'), {})]);

    const failures = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(DomainError);
    expect((failures[0] as DomainError).code).toBe(ErrorCode.ConcurrencyConflict);
    expect((failures[0] as DomainError).message).toMatch(/dl-[ab] were being written by another transaction/);
    // The victim's transaction is aborted; the survivor had waited on it and now goes on.
    const [victim, survivor] = settled[0].status === 'rejected' ? [first, second] : [second, first];
    await victim.query('ROLLBACK');
    await survivor.query('COMMIT');
    const { rows } = await first.query<{ stream_id: string; version: number }>(
      `SELECT stream_id, version FROM ledger.events WHERE stream_id IN ('dl-a', 'dl-b') ORDER BY stream_id`,
    );
    expect(rows).toEqual([
      { stream_id: 'dl-a', version: 1 },
      { stream_id: 'dl-b', version: 1 },
    ]);
  });
});
