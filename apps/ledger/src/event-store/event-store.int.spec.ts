import { type AppendRequest, DomainError, ErrorCode } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { TestStack, waitFor } from '@pp/testing';
import type { Pool } from 'pg';

describe('ledger event store over NATS and Postgres', () => {
  let stack: TestStack;
  let bus: BusClient;
  let db: Pool;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ledger'], label: 'eventstore' });
    bus = await stack.bus(10_000);
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const append = (streamId: string, expected: number, extra: Partial<AppendRequest> = {}) =>
    bus.request('ledger.append.v1', {
      stream_id: streamId,
      expected_version: expected,
      events: [{ type: 'test.happened', schema_version: 1, data: { n: expected + 1 } }],
      metadata: { merchant_id: 'mer_1', livemode: false },
      ...extra,
    });

  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('appends with ids, versions and metadata, and reads the stream back', async () => {
    const first = await append('test-a', 0);
    const second = await append('test-a', 1);
    expect(first).toMatchObject({ stream_id: 'test-a', version: 1, replayed: false });
    expect(second.events[0]).toMatchObject({ version: 2, type: 'test.happened', schema_version: 1, data: { n: 2 } });
    expect(second.events[0].id).toMatch(/^evt_/);
    expect(second.events[0].metadata).toMatchObject({ merchant_id: 'mer_1', livemode: false });
    expect(second.events[0].position).toBeGreaterThan(first.events[0].position);

    const stream = await bus.request('ledger.stream.read.v1', { stream_id: 'test-a' });
    expect(stream.version).toBe(2);
    // Stored to the millisecond, as shown: nothing finer for a millisecond bound to fall between.
    const { rows } = await db.query(`SELECT extract(microseconds FROM created_at)::int % 1000 AS finer FROM ledger.events WHERE stream_id = 'test-a'`);
    expect(rows).toEqual([{ finer: 0 }, { finer: 0 }]);
    expect(stream.events.map((event) => event.id)).toEqual([first.events[0].id, second.events[0].id]);
  });

  it('given a read of a stream’s last events, then it answers those alone, in order, with the stream’s version; past its start, every event', async () => {
    for (const expected of [0, 1, 2]) await append('test-tail', expected);

    const tail = await bus.request('ledger.stream.read.v1', { stream_id: 'test-tail', last: 2 });
    expect({ version: tail.version, versions: tail.events.map((event) => event.version) }).toEqual({ version: 3, versions: [2, 3] });
    const all = await bus.request('ledger.stream.read.v1', { stream_id: 'test-tail', last: 10 });
    expect(all.events.map((event) => event.version)).toEqual([1, 2, 3]);
    expect(await bus.request('ledger.stream.read.v1', { stream_id: 'test-none', last: 1 })).toEqual({ stream_id: 'test-none', version: 0, events: [] });
    await expect(bus.request('ledger.stream.read.v1', { stream_id: 'test-tail', last: 0 })).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
  });

  it('refuses a stale or skipped expected version with CONCURRENCY_CONFLICT', async () => {
    await append('test-b', 0);
    for (const expected of [0, 5]) {
      const error = await failureOf(append('test-b', expected));
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe(ErrorCode.ConcurrencyConflict);
    }
    expect((await bus.request('ledger.stream.read.v1', { stream_id: 'test-b' })).version).toBe(1);
  });

  it('lets exactly one of 20 concurrent appends at the same expected version succeed', async () => {
    await append('test-race', 0);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => append('test-race', 1)));
    const succeeded = results.filter((result) => result.status === 'fulfilled');
    const conflicts = results.filter(
      (result) => result.status === 'rejected' && (result.reason as DomainError).code === ErrorCode.ConcurrencyConflict,
    );
    expect(succeeded).toHaveLength(1);
    expect(conflicts).toHaveLength(19);
    const stream = await bus.request('ledger.stream.read.v1', { stream_id: 'test-race' });
    expect(stream.events.map((event) => event.version)).toEqual([1, 2]);
  });

  it('records an idempotency key with the append: a replay appends nothing, a different fingerprint is refused', async () => {
    const idempotency = { key: 'key-1', fingerprint: 'fp-1' };
    const results = await Promise.all(Array.from({ length: 5 }, () => append('test-idem', 0, { idempotency })));
    expect(results.filter((reply) => !reply.replayed)).toHaveLength(1);
    const ids = new Set(results.map((reply) => reply.events[0].id));
    expect(ids.size).toBe(1);
    expect(results[0].events[0].metadata.idempotency_key).toBe('key-1');

    const later = await append('test-idem', 1, { idempotency });
    expect(later).toMatchObject({ replayed: true, version: 1 });

    const mismatch = await failureOf(append('test-idem', 1, { idempotency: { key: 'key-1', fingerprint: 'fp-2' } }));
    expect(mismatch).toMatchObject({ code: ErrorCode.ValidationFailed, message: 'Idempotency-Key reused with different parameters' });

    const otherMode = await append('test-idem-live', 0, { idempotency, metadata: { merchant_id: 'mer_1', livemode: true } });
    expect(otherMode.replayed).toBe(false);
    expect((await bus.request('ledger.stream.read.v1', { stream_id: 'test-idem' })).version).toBe(1);
  });

  const appendStreams = (streams: Array<[string, number]>, idempotency?: { key: string; fingerprint: string }, unchanged?: Array<[string, number]>) =>
    bus.request('ledger.append-streams.v1', {
      streams: streams.map(([stream_id, expected_version]) => ({
        stream_id,
        expected_version,
        events: [{ type: 'test.happened', schema_version: 1, data: { stream: stream_id } }],
      })),
      metadata: { merchant_id: 'mer_1', livemode: false },
      ...(idempotency ? { idempotency } : {}),
      ...(unchanged ? { unchanged: unchanged.map(([stream_id, version]) => ({ stream_id, version })) } : {}),
    });
  const versionOf = async (streamId: string) => (await bus.request('ledger.stream.read.v1', { stream_id: streamId })).version;

  it('appends to several streams atomically: all or nothing, each at its own expected version', async () => {
    await append('multi-a', 0);
    const both = await appendStreams([
      ['multi-a', 1],
      ['multi-b', 0],
    ]);
    expect(both.streams.map((s) => [s.stream_id, s.version, s.events.length])).toEqual([
      ['multi-a', 2, 1],
      ['multi-b', 1, 1],
    ]);

    const stale = await failureOf(
      appendStreams([
        ['multi-c', 0],
        ['multi-a', 1],
      ]),
    );
    expect(stale).toMatchObject({ code: ErrorCode.ConcurrencyConflict, details: { stream_id: 'multi-a', expected_version: 1 } });
    expect((await bus.request('ledger.stream.read.v1', { stream_id: 'multi-c' })).version).toBe(0); // nothing of the failed append

    const duplicate = await failureOf(
      appendStreams([
        ['multi-d', 0],
        ['multi-d', 0],
      ]),
    );
    expect(duplicate).toMatchObject({ code: ErrorCode.ValidationFailed });
  });

  it('commits an append only while each stream it requires unchanged is still at its version, writing nothing to those streams', async () => {
    await append('guard-a', 0);
    const kept = await appendStreams([['guarded-1', 0]], undefined, [['guard-a', 1]]);
    expect(kept.streams.map((stream) => stream.stream_id)).toEqual(['guarded-1']);
    expect(await versionOf('guard-a')).toBe(1);

    await append('guard-a', 1);
    const moved = await failureOf(appendStreams([['guarded-2', 0]], undefined, [['guard-a', 1]]));
    expect(moved).toMatchObject({ code: ErrorCode.ConcurrencyConflict, details: { stream_id: 'guard-a', expected_version: 1 } });
    expect(await versionOf('guarded-2')).toBe(0);

    const neverWritten = await appendStreams([['guarded-3', 0]], undefined, [['guard-none', 0]]);
    expect(neverWritten.streams[0].version).toBe(1);
    const named = await failureOf(appendStreams([['guarded-4', 0]], undefined, [['guarded-4', 0]]));
    expect(named).toMatchObject({ code: ErrorCode.ValidationFailed });
    const malformed = await failureOf(appendStreams([['guarded-5', 0]], undefined, [['not a stream', 0]]));
    expect(malformed).toMatchObject({ code: ErrorCode.ValidationFailed });
    expect((malformed as Error).message).toBe('Validation failed: unchanged is invalid');
  });

  it('given appends requiring a stream unchanged race a write to it: each one that commits was committed before the write', async () => {
    for (let round = 0; round < 5; round++) {
      const guard = `guard-race-${round}`;
      await append(guard, 0);
      const readers = Array.from({ length: 10 }, (_, i) => appendStreams([[`guarded-race-${round}-${i}`, 0]], undefined, [[guard, 1]]));
      const [write, ...read] = await Promise.allSettled([append(guard, 1), ...readers]);
      expect(write.status).toBe('fulfilled');
      const writtenAt = (write as PromiseFulfilledResult<{ events: Array<{ position: number }> }>).value.events[0].position;
      for (const result of read) {
        if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: ErrorCode.ConcurrencyConflict });
        else expect(result.value.streams[0].events[0].position).toBeLessThan(writtenAt);
      }
    }
  });

  it('lets exactly one of 20 concurrent two-stream appends sharing one stream commit', async () => {
    await append('multi-shared', 0);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        appendStreams([
          [`multi-own-${i}`, 0],
          ['multi-shared', 1],
        ]),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM ledger.events WHERE stream_id LIKE 'multi-own-%'`);
    expect(rows[0].n).toBe(1);
  });

  it('replays a multi-stream append by its idempotency key, every stream included', async () => {
    const idempotency = { key: 'multi-key', fingerprint: 'fp' };
    const first = await appendStreams([['multi-idem-a', 0], ['multi-idem-b', 0]], idempotency);
    const again = await appendStreams([['multi-idem-a', 0], ['multi-idem-b', 0]], idempotency);
    expect(again).toEqual({ ...first, replayed: true });
    const looked = await bus.request('ledger.idempotency.replay.v1', { merchant_id: 'mer_1', livemode: false, idempotency });
    expect(looked).toEqual(again);
    const unknown = await failureOf(bus.request('ledger.idempotency.replay.v1', { merchant_id: 'mer_1', livemode: false, idempotency: { key: 'nope', fingerprint: 'fp' } }));
    expect(unknown).toMatchObject({ code: ErrorCode.NotFound });
  });

  it("given Postgres ends the group commit's idle connection (a restart, an operator), when the next append comes: the ledger lives on and commits it", async () => {
    await append('test-ended-connection', 0);
    const { rows } = await db.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'ledger-append'`,
    );
    expect(rows).toEqual([{ ended: true }]);
    await waitFor('the ended connection to be gone', async () => {
      const { rowCount } = await db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'ledger-append'`);
      return rowCount === 0;
    });
    expect((await append('test-ended-connection', 1)).version).toBe(2);
    expect(stack.process('ledger').running).toBe(true);
  });

  it('given the refunds service’s subject, when an append would confirm a payment, then it is FORBIDDEN and nothing is written; a refund’s own append commits', async () => {
    const forged = await failureOf(
      bus.request('ledger.append-refund-streams.v1', {
        streams: [{ stream_id: 'transaction-forged', expected_version: 0, events: [{ type: 'payment.confirmed', schema_version: 1, data: {} }] }],
        metadata: { merchant_id: 'mer_1', livemode: true },
      }),
    );
    expect(forged).toMatchObject({ code: ErrorCode.Forbidden, message: 'The refunds service may not append payment.confirmed to transaction streams' });
    expect((await bus.request('ledger.stream.read.v1', { stream_id: 'transaction-forged' })).version).toBe(0);

    const own = await bus.request('ledger.append-refund-streams.v1', {
      streams: [{ stream_id: 'refund-own', expected_version: 0, events: [{ type: 'refund.cancelled', schema_version: 1, data: { refund_id: 'own' } }] }],
      metadata: { merchant_id: 'mer_1', livemode: true },
    });
    expect(own.streams[0]).toMatchObject({ stream_id: 'refund-own', version: 1 });
  });

  it('given the refunds service’s subject, when a refund completion under one merchant refunds another merchant’s payment, then it is FORBIDDEN and nothing is written', async () => {
    const theirs = { merchant_id: 'mer_other', livemode: true };
    const recorded = {
      payment_id: 'theirs',
      ...theirs,
      session_id: null,
      session_reference: null,
      session_metadata: null,
      etransfer_ref: 'PP-7K3M9Q',
      amount: 5000,
      sender_name: 'Jo Payer',
      sender_email: null,
      comment: null,
      status: 'CONFIRMED',
      verification_method: 'AUTO_EMAIL',
      review_reasons: [],
      source: 'email',
      email_id: 'em_theirs',
      reference_number: 'C1Atheirs',
      created_at: '2026-12-07T18:00:00.000Z',
    };
    await bus.request('ledger.append-streams.v1', {
      streams: [{ stream_id: 'transaction-theirs', expected_version: 0, events: [{ type: 'transaction.recorded', schema_version: 1, data: recorded }] }],
      metadata: theirs,
    });
    const refund = { refund_id: 'mine', payment_id: 'theirs' };
    const forged = await failureOf(
      bus.request('ledger.append-refund-streams.v1', {
        streams: [
          {
            stream_id: 'transaction-theirs',
            expected_version: 1,
            events: [
              { type: 'transaction.refunded', schema_version: 1, data: refund },
              { type: 'payment.refunded', schema_version: 1, data: { payment_id: 'theirs' } },
            ],
          },
          {
            stream_id: 'refund-mine',
            expected_version: 0,
            events: [
              { type: 'refund.requested', schema_version: 1, data: { ...refund, amount: 5000, merchant_id: 'mer_1', livemode: true } },
              { type: 'refund.completed', schema_version: 1, data: refund },
            ],
          },
        ],
        metadata: { merchant_id: 'mer_1', livemode: true },
      }),
    );
    expect(forged).toMatchObject({ code: ErrorCode.Forbidden, message: 'transaction-theirs belongs to another merchant or mode than the append' });
    expect((await bus.request('ledger.stream.read.v1', { stream_id: 'transaction-theirs' })).version).toBe(1);
    expect((await bus.request('ledger.stream.read.v1', { stream_id: 'refund-mine' })).version).toBe(0);
  });

  it('refuses an invalid append with VALIDATION_FAILED', async () => {
    const error = await failureOf(append('not a stream', 0));
    expect(error).toMatchObject({ code: ErrorCode.ValidationFailed });
  });

  it.each([
    ['UPDATE', `UPDATE ledger.events SET data = '{}'`],
    ['DELETE', 'DELETE FROM ledger.events'],
    ['TRUNCATE', 'TRUNCATE ledger.events'],
  ])('rejects %s on the event table in the database itself', async (_operation, sql) => {
    const before = await db.query('SELECT count(*) FROM ledger.events');
    await expect(db.query(sql)).rejects.toThrow(/insert-only/);
    const after = await db.query('SELECT count(*) FROM ledger.events');
    expect(after.rows[0].count).toBe(before.rows[0].count);
    expect(Number(after.rows[0].count)).toBeGreaterThan(0);
  });
});
