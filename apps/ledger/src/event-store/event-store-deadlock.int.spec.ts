import { type AppendStreamsRequest, CheckoutSessionEventType, DomainError, ErrorCode } from '@pp/contracts';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { Client } from 'pg';
import { LEDGER_PROJECTIONS } from '../projections/ledger.projections';
import { EventStore } from './event-store';

const appendTo = (streamId: string): AppendStreamsRequest => ({
  streams: [{ stream_id: streamId, expected_version: 0, events: [{ type: 'test.happened', schema_version: 1, data: {} }] }],
  metadata: { merchant_id: 'mer_deadlock', livemode: false },
});

/** An append under an idempotency key (its own stream, so only the key can be shared). */
const appendWithKey = (streamId: string, key: string): AppendStreamsRequest => ({ ...appendTo(streamId), idempotency: { key, fingerprint: `fp-${key}` } });

/** A checkout session's creation: its projection inserts the memo, which the read model's unique index holds. */
const sessionWithMemo = (sessionId: string, memo: string): AppendStreamsRequest => ({
  streams: [
    {
      stream_id: `checkout_session-${sessionId}`,
      expected_version: 0,
      events: [
        {
          type: CheckoutSessionEventType.Created,
          schema_version: 1,
          data: {
            session_id: sessionId,
            merchant_id: 'mer_deadlock',
            livemode: false,
            amount: 1000,
            currency: 'CAD',
            reference: `ref-${sessionId}`,
            memo,
            client_secret: `secret-${sessionId}`,
            success_url: 'https://shop.example/ok',
            cancel_url: 'https://shop.example/cancel',
            metadata: null,
            created_at: '2026-01-01T00:00:00.000Z',
            expires_at: '2026-01-01T01:00:00.000Z',
          },
        },
      ],
    },
  ],
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

  /**
   * Each transaction appends `holds` (one each), then each appends `crossing` (one each), whose rows the other
   * transaction's first append holds: one of the second appends deadlocks. The victim's transaction then rolls
   * back; the survivor had waited on it, goes on and commits. Answers the victim's error.
   */
  async function crossAppends(holds: [AppendStreamsRequest, AppendStreamsRequest], crossing: [AppendStreamsRequest, AppendStreamsRequest]): Promise<unknown> {
    await first.query('BEGIN');
    await second.query('BEGIN');
    await store.appendStreams(first, holds[0], {});
    await store.appendStreams(second, holds[1], {});

    const settled = await Promise.allSettled([store.appendStreams(first, crossing[0], {}), store.appendStreams(second, crossing[1], {})]);

    const failures = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    const [victim, survivor] = settled[0].status === 'rejected' ? [first, second] : [second, first];
    await victim.query('ROLLBACK');
    await survivor.query('COMMIT');
    expect(failures).toHaveLength(1);
    return failures[0];
  }

  const expectLostRace = (failure: unknown, streams: RegExp) => {
    expect(failure).toBeInstanceOf(DomainError);
    expect((failure as DomainError).code).toBe(ErrorCode.ConcurrencyConflict);
    expect((failure as DomainError).message).toMatch(streams);
  };

  it('given each transaction holds one stream, when each appends to the other\'s, then one fails with CONCURRENCY_CONFLICT and the other commits', async () => {
    const failure = await crossAppends([appendTo('dl-a'), appendTo('dl-b')], [appendTo('dl-b'), appendTo('dl-a')]);

    expectLostRace(failure, /dl-[ab] were being written by another transaction/);
    const { rows } = await first.query<{ stream_id: string; version: number }>(
      `SELECT stream_id, version FROM ledger.events WHERE stream_id IN ('dl-a', 'dl-b') ORDER BY stream_id`,
    );
    expect(rows).toEqual([
      { stream_id: 'dl-a', version: 1 },
      { stream_id: 'dl-b', version: 1 },
    ]);
  });

  it("given each transaction holds one idempotency key, when each claims the other's, then one fails with CONCURRENCY_CONFLICT and the other commits", async () => {
    const failure = await crossAppends([appendWithKey('dk-a', 'key-a'), appendWithKey('dk-b', 'key-b')], [appendWithKey('dk-c', 'key-b'), appendWithKey('dk-d', 'key-a')]);

    expectLostRace(failure, /dk-[cd] were being written by another transaction/);
    const { rows } = await first.query<{ key: string }>(`SELECT key FROM ledger.idempotency_keys WHERE key IN ('key-a', 'key-b') ORDER BY key`);
    expect(rows.map((row) => row.key)).toEqual(['key-a', 'key-b']);
  });

  it("given each transaction holds one key of a read model's unique index, when each projects the other's, then one fails with CONCURRENCY_CONFLICT and the other commits", async () => {
    const failure = await crossAppends([sessionWithMemo('dm-a', 'MEMO-A'), sessionWithMemo('dm-b', 'MEMO-B')], [sessionWithMemo('dm-c', 'MEMO-B'), sessionWithMemo('dm-d', 'MEMO-A')]);

    expectLostRace(failure, /checkout_session-dm-[cd] were being written by another transaction/);
  });
});
