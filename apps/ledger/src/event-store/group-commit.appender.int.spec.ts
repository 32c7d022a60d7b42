import { randomUUID } from 'node:crypto';
import {
  type AppendStreamsReply,
  type AppendStreamsRequest,
  CheckoutSessionEventType,
  checkoutSessionStreamId,
  COMMIT_BEFORE_RULE,
  DomainError,
  ErrorCode,
  MEMO_TAKEN_RULE,
  MerchantEventType,
  type Event,
  PaymentEventType,
  type PaymentRecordedV1,
  type SessionCreatedV1,
  transactionStreamId,
} from '@pp/contracts';
import { guardCheckedOutClients, JsonLogger, LEDGER_BATCH_SIZE, LEDGER_EVENTS, ServiceMetrics } from '@pp/platform';
import { createTestDatabase, testPool, type TestDatabase, waitFor } from '@pp/testing';
import type { Socket } from 'node:net';
import { Pool } from 'pg';
import type { LedgerConfig } from '../ledger.config';
import { LEDGER_PROJECTIONS } from '../projections/ledger.projections';
import type { AppendContext } from './append-request';
import { AppendMetrics } from './append.metrics';
import { EventStore } from './event-store';
import { APPEND_PAST_DEADLINE, EVENTS_COMMITTED_CHANNEL, GroupCommitAppender } from './group-commit.appender';
import { LocalCommits } from './local-commits';

const SCOPE = { merchant_id: 'mer_gc', livemode: false };

/*
 * The group commit against real Postgres. Appends handed over together while
 * a commit is under way form the next batch, which is tried whole first; any
 * append that would not go through as a fresh append sends the batch back to
 * one savepoint per append. Either way each append gets its own answer.
 */
describe('group commit: whole batches and their fallback', () => {
  let database: TestDatabase;
  let pool: Pool;
  /** The test's own reads. */
  let db: Pool;
  let appender: GroupCommitAppender;
  const localCommits = new LocalCommits();
  const metrics = new ServiceMetrics('ledger', { processMetrics: false });
  /** SQL of every statement the appender sent, in order. */
  const statements: string[] = [];
  /** When set, the connection is lost (its socket destroyed) as the next statement matching it is sent. */
  let loseConnectionAt: RegExp | undefined;
  /** When set, the next statement matching it never leaves the client, whose connection is then lost. */
  let loseConnectionUnsent: RegExp | undefined;
  /** When set, the connection stops reading as the next statement matching it is sent, and is lost once Postgres has answered it. */
  let loseConnectionUnreadAfter: RegExp | undefined;
  /** Errors of connections lost while the appender held them. */
  const lost: Error[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('groupcommit');
    await database.migrate('ledger');
    pool = new Pool({ connectionString: database.url, max: 1, pipeline: true }); // as the service's (append-connection.ts)
    pool.on('error', () => undefined); // as the service's: an idle connection the server ends is dropped, not fatal
    guardCheckedOutClients(pool, (error) => lost.push(error)); // as the service's: a connection lost mid-batch is not fatal either
    // Records what the appender sends, to tell the whole-batch path from the fallback.
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      Object.assign(client, {
        query: (...args: unknown[]) => {
          const sql = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text);
          statements.push(sql);
          const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
          if (loseConnectionUnsent?.test(sql)) {
            loseConnectionUnsent = undefined;
            socket.write = () => true;
            setImmediate(() => socket.destroy());
          }
          const answer = query(...args);
          if (loseConnectionAt?.test(sql)) {
            loseConnectionAt = undefined;
            socket.destroy();
          }
          if (loseConnectionUnreadAfter?.test(sql)) {
            loseConnectionUnreadAfter = undefined;
            socket.pause();
            setTimeout(() => socket.destroy(), 200);
          }
          return answer;
        },
      });
    });
    db = testPool(database.url, 2);
    const config = { LEDGER_APPEND_BATCH_MAX: 200, LEDGER_TEST_CRASH_AFTER_COMMIT: false } as LedgerConfig;
    appender = new GroupCommitAppender(pool, new EventStore(LEDGER_PROJECTIONS), config, new JsonLogger('ledger-test', 'error', () => undefined), new AppendMetrics(metrics), localCommits);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.end();
    await database?.drop();
  });

  const created = (sessionId: string, reference: string, memo = `MEMO${randomUUID().slice(0, 8).toUpperCase()}`): Event => {
    const data: SessionCreatedV1 = {
      session_id: sessionId,
      ...SCOPE,
      amount: 1500,
      currency: 'CAD',
      reference,
      memo,
      client_secret: `${sessionId}_secret_x`,
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/no',
      metadata: reference.endsWith('-nometa') ? null : { order: reference, quote: 'it\'s "quoted" \\ here' },
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2026-01-01T00:30:00.000Z',
    };
    return { type: CheckoutSessionEventType.Created, schema_version: 1, data };
  };

  const createRequest = (sessionId: string, reference: string, options: { key?: string; fingerprint?: string; memo?: string; expected?: number } = {}): AppendStreamsRequest => ({
    streams: [{ stream_id: checkoutSessionStreamId(sessionId), expected_version: options.expected ?? 0, events: [created(sessionId, reference, options.memo)] }],
    metadata: SCOPE,
    ...(options.key ? { idempotency: { key: options.key, fingerprint: options.fingerprint ?? 'fp' } } : {}),
  });

  const completeRequest = (sessionId: string): AppendStreamsRequest => ({
    streams: [
      {
        stream_id: checkoutSessionStreamId(sessionId),
        expected_version: 1,
        events: [
          { type: CheckoutSessionEventType.Completed, schema_version: 1, data: { session_id: sessionId, completed_at: '2026-01-01T00:10:00.000Z', transaction_id: null } },
          {
            type: MerchantEventType.CheckoutSessionCompleted,
            schema_version: 1,
            data: { reference: `ref-${sessionId}`, amount: 1500, status: 'COMPLETED', metadata: null, session_id: sessionId },
          },
        ],
      },
    ],
    metadata: SCOPE,
  });

  /** Hands the requests over together: the first commits alone, the rest wait for it and form one batch. */
  async function inOneBatch(requests: AppendStreamsRequest[]): Promise<Array<PromiseSettledResult<AppendStreamsReply>>> {
    const opener = appender.appendStreams(createRequest(randomUUID(), `opener-${randomUUID()}`), {});
    const results = Promise.allSettled(requests.map((request) => appender.appendStreams(request, { requestId: 'req_batch' })));
    await opener;
    return results;
  }

  it('given appends whose callers’ deadlines pass while they wait behind a commit, then they are refused unwritten; the others of their batch commit', async () => {
    const [late, inTime] = [randomUUID(), randomUUID()];
    const opener = appender.appendStreams(createRequest(randomUUID(), `opener-${randomUUID()}`), {});
    const waiting = [
      appender.appendStreams(createRequest(late, `late-${late}`), { deadline: Date.now() - 1 }),
      appender.appendStreams(createRequest(inTime, `in-time-${inTime}`), { deadline: Date.now() + 60_000 }),
    ];
    await opener;
    const [refused, committed] = await Promise.allSettled(waiting);

    expect(refused).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.ServiceUnavailable, message: APPEND_PAST_DEADLINE } });
    expect(committed.status).toBe('fulfilled');
    expect(await eventsOf(late)).toEqual([]);
    expect(await sessionRow(late)).toBeUndefined();
    expect(await eventsOf(inTime)).toEqual([{ version: 1, type: CheckoutSessionEventType.Created }]);
  });

  /**
   * Appends `late` and a patient append behind an opener's commit, so the two form one batch, while another
   * transaction holds the stream lock of `late`'s stream, as another replica's batch writing it would
   * (stream-locks.ts); lets the lock go after a second. Answers how `late` was refused, the patient one's reply, and
   * where the statements sent meanwhile start.
   */
  async function heldOnStreamLock(late: AppendStreamsRequest, lateContext: AppendContext, patientSession: string) {
    const holder = await db.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [late.streams[0].stream_id]);
      const sent = statements.length;
      const opener = appender.appendStreams(createRequest(randomUUID(), `opener-${randomUUID()}`), {});
      const refused = appender.appendStreams(late, lateContext).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      const waiting = appender.appendStreams(createRequest(patientSession, `patient-${patientSession}`), {});
      await opener;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await holder.query('COMMIT');
      return { refused: await refused, waiting: await waiting, sent };
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
  }

  it('given a batch held on a stream lock past its appends’ deadlines (another replica’s batch, a rebuild), then they are refused unwritten before COMMIT; an append without one commits after', async () => {
    const [held, patient] = [randomUUID(), randomUUID()];
    const { refused, waiting, sent } = await heldOnStreamLock(createRequest(held, `held-${held}`), { deadline: Date.now() + 300 }, patient);

    expect(refused).toMatchObject({ code: ErrorCode.ServiceUnavailable, message: APPEND_PAST_DEADLINE });
    expect(await eventsOf(held)).toEqual([]);
    expect(await sessionRow(held)).toBeUndefined();
    expect(waiting.streams[0]).toMatchObject({ stream_id: checkoutSessionStreamId(patient), version: 1 });
    // The batch holding both (the opener's too, when it queued behind an earlier commit) was rolled back before COMMIT,
    // and ran again without the late one.
    const since = statements.slice(sent);
    expect(since).toContain('ROLLBACK');
    expect(since.slice(since.indexOf('ROLLBACK')).filter((sql) => sql.startsWith('BEGIN'))).toHaveLength(1);
  });

  describe('an append to commit before a moment (a completion of a session open until its deadline)', () => {
    const by = (at: number) => new Date(at).toISOString();

    it('given its moment has passed, then it is refused CONCURRENCY_CONFLICT with the rule, unwritten; the others of its batch commit', async () => {
      const [late, inTime] = [randomUUID(), randomUUID()];
      const [refused, committed] = await inOneBatch([
        { ...createRequest(late, `late-${late}`), commit_before: by(Date.now() - 1) },
        { ...createRequest(inTime, `in-time-${inTime}`), commit_before: by(Date.now() + 60_000) },
      ]);
      expect(refused).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.ConcurrencyConflict, details: { rule: COMMIT_BEFORE_RULE } } });
      expect(committed.status).toBe('fulfilled');
      expect(await eventsOf(late)).toEqual([]);
      expect(await sessionRow(late)).toBeUndefined();
      expect(await eventsOf(inTime)).toEqual([{ version: 1, type: CheckoutSessionEventType.Created }]);
    });

    it('given its moment passes while its batch waits on a stream lock (before COMMIT), then it is refused unwritten; an append of the batch without one commits', async () => {
      const [held, patient] = [randomUUID(), randomUUID()];
      const { refused, waiting } = await heldOnStreamLock({ ...createRequest(held, `held-${held}`), commit_before: by(Date.now() + 300) }, {}, patient);
      expect(refused).toMatchObject({ code: ErrorCode.ConcurrencyConflict, details: { rule: COMMIT_BEFORE_RULE } });
      expect(await eventsOf(held)).toEqual([]);
      expect(waiting.streams[0]).toMatchObject({ stream_id: checkoutSessionStreamId(patient), version: 1 });
    });

    it('given a replay of an append its key recorded, then it is answered as replayed whatever the moment: it commits nothing', async () => {
      const [sessionId, key] = [randomUUID(), `key-${randomUUID()}`];
      const first = await appender.appendStreams(createRequest(sessionId, `ref-${sessionId}`, { key }), {});
      const replay = await appender.appendStreams({ ...createRequest(sessionId, `ref-${sessionId}`, { key }), commit_before: by(Date.now() - 1) }, {});
      expect(replay).toMatchObject({ replayed: true, streams: [{ version: 1, events: [{ id: first.streams[0].events[0].id }] }] });
    });
  });

  /** How many savepoints a transaction's statements ever had open at once (SAVEPOINT opens, RELEASE closes, ROLLBACK TO keeps it open). */
  const deepestSavepoints = (transaction: string): number => {
    const open: string[] = [];
    let deepest = 0;
    for (const [, verb, name] of transaction.matchAll(/(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT) (\w+)/g)) {
      if (verb === 'SAVEPOINT') open.push(name);
      else if (verb === 'RELEASE SAVEPOINT') open.splice(open.lastIndexOf(name));
      deepest = Math.max(deepest, open.length);
    }
    return deepest;
  };

  /** Statements of the last transaction, the batch's. */
  const count = (pattern: RegExp) => {
    const begun = statements.findLastIndex((sql) => sql.startsWith('BEGIN'));
    return statements.slice(begun).filter((sql) => pattern.test(sql)).length;
  };
  const eventsOf = async (sessionId: string) =>
    (await db.query('SELECT version, type FROM ledger.events WHERE stream_id = $1 ORDER BY version', [checkoutSessionStreamId(sessionId)])).rows;
  const sessionRow = async (sessionId: string) => (await db.query('SELECT * FROM ledger.checkout_sessions WHERE id = $1', [sessionId])).rows[0];
  const keyRecorded = async (key: string) =>
    (await db.query('SELECT 1 FROM ledger.idempotency_keys WHERE merchant_id = $1 AND livemode = $2 AND key = $3', [SCOPE.merchant_id, SCOPE.livemode, key])).rowCount === 1;
  /** The value of one series of the appender's metrics: a counter's, or a histogram's `_count` or `_sum`. */
  const sample = async (name: string, labels: Record<string, string> = {}, suffix = ''): Promise<number> => {
    const { values } = await metrics.registry.getSingleMetric(name)!.get();
    const found = values.find((value) => ((value as { metricName?: string }).metricName ?? name) === name + suffix && Object.entries(labels).every(([key, v]) => value.labels[key] === v));
    return found?.value ?? 0;
  };
  const valueOf = (result: PromiseSettledResult<AppendStreamsReply>): AppendStreamsReply => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  };
  const errorOf = (result: PromiseSettledResult<AppendStreamsReply>): DomainError => {
    if (result.status === 'fulfilled') throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
    return result.reason as DomainError;
  };

  it('commits a batch of fresh appends with one statement per table, as appending them one by one would', async () => {
    const ids = Array.from({ length: 8 }, () => randomUUID());
    const results = await inOneBatch(ids.map((id, i) => createRequest(id, i === 0 ? `ref-${id}-nometa` : `ref-${id}`, { key: `key-${id}` })));

    const replies = results.map(valueOf);
    expect(count(/INSERT INTO ledger\.events/)).toBe(1);
    expect(count(/INSERT INTO ledger\.idempotency_keys/)).toBe(1);
    expect(count(/INSERT INTO ledger\.checkout_sessions/)).toBe(1);
    expect(count(/SAVEPOINT append/)).toBe(0);
    replies.forEach((reply, i) => {
      expect(reply.replayed).toBe(false);
      expect(reply.streams).toHaveLength(1);
      expect(reply.streams[0]).toMatchObject({ stream_id: checkoutSessionStreamId(ids[i]), version: 1 });
      expect(reply.streams[0].events[0]).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        version: 1,
        type: CheckoutSessionEventType.Created,
        metadata: { ...SCOPE, idempotency_key: `key-${ids[i]}`, correlation_id: 'req_batch' },
      });
    });
    const positions = replies.map((reply) => reply.streams[0].events[0].position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b)); // positions follow the order of arrival

    for (const [i, id] of ids.entries()) {
      expect(await eventsOf(id)).toEqual([{ version: 1, type: CheckoutSessionEventType.Created }]);
      expect(await keyRecorded(`key-${id}`)).toBe(true);
      expect(await sessionRow(id)).toMatchObject({
        id,
        status: 'PENDING',
        amount: '1500',
        reference: i === 0 ? `ref-${id}-nometa` : `ref-${id}`,
        metadata: i === 0 ? null : { order: `ref-${id}`, quote: 'it\'s "quoted" \\ here' },
        version: 1,
      });
    }
    // A replay of a batched key answers the events the batch stored.
    const again = await appender.appendStreams(createRequest(ids[3], `ref-${ids[3]}`, { key: `key-${ids[3]}` }), {});
    expect(again).toEqual({ ...replies[3], replayed: true });
  });

  it('projects multi-event appends whole too: completion facts and their merchant-visible twins', async () => {
    const ids = Array.from({ length: 4 }, () => randomUUID());
    await Promise.all(ids.map((id) => appender.appendStreams(createRequest(id, `ref-${id}`), {})));
    const results = await inOneBatch(ids.map(completeRequest));

    expect(results.map((result) => valueOf(result).streams[0].version)).toEqual([3, 3, 3, 3]);
    expect(count(/INSERT INTO ledger\.events/)).toBe(1);
    expect(count(/INSERT INTO ledger\.merchant_events/)).toBe(1);
    expect(count(/UPDATE ledger\.checkout_sessions/)).toBe(1);
    for (const [i, id] of ids.entries()) {
      expect(await sessionRow(id)).toMatchObject({ status: 'COMPLETED', version: 2, transaction_id: null }) // the version of its session.completed fact;
      const { rows } = await db.query('SELECT id, position, merchant_id, livemode, type, stream_id, created_at FROM ledger.merchant_events WHERE stream_id = $1', [
        checkoutSessionStreamId(id),
      ]);
      // Its position and time are those the insert gave the event, read from ledger.events in the same round trip.
      const twin = valueOf(results[i]).streams[0].events[1];
      expect(rows).toEqual([
        { id: twin.id, position: String(twin.position), ...SCOPE, type: 'checkout.session.completed', stream_id: checkoutSessionStreamId(id), created_at: new Date(twin.created_at) },
      ]);
    }
  });

  it('records, verifies and refunds the payments of a batch with one statement each, as one by one would', async () => {
    const ids = Array.from({ length: 4 }, () => `txn_${randomUUID().replaceAll('-', '')}`);
    const recorded = (id: string, i: number): PaymentRecordedV1 => ({
      payment_id: id,
      ...SCOPE,
      session_id: i === 0 ? null : `cs_${id}`,
      session_reference: i === 0 ? null : `order-${i}`,
      session_metadata: null,
      etransfer_ref: i === 1 ? null : `CA${i}xYz`,
      amount: 1000 + i,
      sender_name: `Payer ${i} "O'Brien"`,
      sender_email: i === 2 ? null : `payer${i}@bank.example`,
      comment: i === 3 ? null : `PP-00000${i}`,
      status: i < 2 ? 'REQUIRES_MANUAL_REVIEW' : 'CONFIRMED',
      verification_method: 'AUTO_EMAIL',
      review_reasons: i === 0 ? ['unknown_memo', 'dkim_missing', 'a "quoted", {odd} reason'] : i === 1 ? ['amount_mismatch'] : [],
      source: 'email',
      email_id: `em_${i}`,
      reference_number: i === 3 ? null : `C1A${i}`,
      created_at: `2026-01-01T00:00:0${i}.123Z`,
    });
    const record = (id: string, i: number): AppendStreamsRequest => ({
      streams: [{ stream_id: transactionStreamId(id), expected_version: 0, events: [{ type: PaymentEventType.Recorded, schema_version: 1, data: recorded(id, i) }] }],
      metadata: SCOPE,
    });
    const then = (id: string, event: Event): AppendStreamsRequest => ({ streams: [{ stream_id: transactionStreamId(id), expected_version: 1, events: [event] }], metadata: SCOPE });
    const paymentRow = async (id: string) => (await db.query('SELECT * FROM ledger.payments WHERE id = $1', [id])).rows[0];

    const records = await inOneBatch(ids.map(record));
    expect(records.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(count(/INSERT INTO ledger\.payments/)).toBe(1);
    for (const [i, id] of ids.entries()) {
      const data = recorded(id, i);
      expect(await paymentRow(id)).toEqual({
        id,
        position: String(valueOf(records[i]).streams[0].events[0].position),
        merchant_id: SCOPE.merchant_id,
        livemode: SCOPE.livemode,
        session_id: data.session_id,
        session_reference: data.session_reference,
        etransfer_ref: data.etransfer_ref,
        amount: String(data.amount),
        sender_name: data.sender_name,
        sender_email: data.sender_email,
        comment: data.comment,
        status: data.status,
        verification_method: data.verification_method,
        review_reasons: data.review_reasons,
        verified_by: null,
        email_id: data.email_id,
        reference_number: data.reference_number,
        created_at: new Date(data.created_at),
        updated_at: new Date(data.created_at),
        version: 1,
        search_text: [data.etransfer_ref ?? '', data.comment ?? '', data.session_reference ?? ''].join('\x1f').toLowerCase(),
      });
    }

    const verifiedAt = '2026-01-02T00:00:00.456Z';
    const verified = await inOneBatch(
      ids.slice(0, 2).map((id) => then(id, { type: PaymentEventType.Verified, schema_version: 1, data: { payment_id: id, verified_by: `usr_${id}`, verified_at: verifiedAt } })),
    );
    expect(verified.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(count(/UPDATE ledger\.payments/)).toBe(1);
    const refundedAt = '2026-01-03T00:00:00.789Z';
    const refunded = await inOneBatch(
      ids.slice(2).map((id) => then(id, { type: PaymentEventType.Refunded, schema_version: 1, data: { payment_id: id, refund_id: `re_${id}`, refunded_at: refundedAt } })),
    );
    expect(refunded.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(count(/UPDATE ledger\.payments/)).toBe(1);
    for (const id of ids.slice(0, 2)) {
      expect(await paymentRow(id)).toMatchObject({ status: 'CONFIRMED', verification_method: 'MANUAL_ADMIN', verified_by: `usr_${id}`, updated_at: new Date(verifiedAt), version: 2 });
    }
    for (const id of ids.slice(2)) {
      expect(await paymentRow(id)).toMatchObject({ status: 'REFUNDED', verification_method: 'AUTO_EMAIL', verified_by: null, updated_at: new Date(refundedAt), version: 2 });
    }
  });

  it('gives each append of a mixed batch its own answer and commits the good ones once', async () => {
    const taken = randomUUID();
    const replayedKey = `key-${randomUUID()}`;
    const earlier = await appender.appendStreams(createRequest(taken, `ref-${taken}`, { key: replayedKey, memo: `TAKEN${taken.slice(0, 6)}` }), {});
    const other = randomUUID();
    await appender.appendStreams(createRequest(other, `ref-${other}`, { key: `key-${other}` }), {});

    const good = Array.from({ length: 3 }, () => randomUUID());
    const created = { type: CheckoutSessionEventType.Created };
    const before = { created: await sample(LEDGER_EVENTS.name, created), batches: await sample(LEDGER_BATCH_SIZE.name, {}, '_count'), appends: await sample(LEDGER_BATCH_SIZE.name, {}, '_sum') };
    const [duplicateReference, memoClash, staleKey, reusedKey] = Array.from({ length: 4 }, () => randomUUID());
    const results = await inOneBatch([
      createRequest(good[0], `ref-${good[0]}`, { key: `key-${good[0]}` }),
      createRequest(duplicateReference, `ref-${taken}`, { key: `key-${duplicateReference}` }),
      createRequest(taken, `ref-${taken}`, { key: replayedKey, memo: `TAKEN${taken.slice(0, 6)}` }),
      createRequest(good[1], `ref-${good[1]}`),
      createRequest(memoClash, `ref-${memoClash}`, { key: `key-${memoClash}`, memo: `TAKEN${taken.slice(0, 6)}` }),
      createRequest(other, `ref-${other}-again`, { key: `key-${staleKey}` }),
      createRequest(reusedKey, `ref-${reusedKey}`, { key: `key-${other}`, fingerprint: 'another' }),
      createRequest(good[2], `ref-${good[2]}`, { key: `key-${good[2]}` }),
    ]);

    expect(count(/ROLLBACK TO SAVEPOINT batch/)).toBe(1); // tried whole, then one append at a time
    expect(valueOf(results[0]).replayed).toBe(false);
    expect(errorOf(results[1])).toMatchObject({ code: ErrorCode.Conflict, message: 'Reference already exists' });
    expect(valueOf(results[2])).toEqual({ ...earlier, replayed: true });
    expect(valueOf(results[3]).replayed).toBe(false);
    expect(errorOf(results[4])).toMatchObject({ code: ErrorCode.Conflict, details: { rule: MEMO_TAKEN_RULE } });
    expect(errorOf(results[5])).toMatchObject({ code: ErrorCode.ConcurrencyConflict, details: { stream_id: checkoutSessionStreamId(other) } });
    expect(errorOf(results[6])).toMatchObject({ code: ErrorCode.ValidationFailed, message: 'Idempotency-Key reused with different parameters' });
    expect(valueOf(results[7]).replayed).toBe(false);
    for (const index of [1, 4, 5, 6]) expect(errorOf(results[index])).toBeInstanceOf(DomainError);

    for (const id of [...good, taken, other]) expect(await eventsOf(id)).toEqual([{ version: 1, type: CheckoutSessionEventType.Created }]);
    for (const id of [duplicateReference, memoClash, reusedKey]) {
      expect(await eventsOf(id)).toEqual([]);
      expect(await sessionRow(id)).toBeUndefined();
    }
    expect(await sessionRow(other)).toMatchObject({ reference: `ref-${other}` });
    for (const id of good) expect(await sessionRow(id)).toMatchObject({ status: 'PENDING', version: 1 });
    for (const key of [`key-${good[0]}`, `key-${good[2]}`]) expect(await keyRecorded(key)).toBe(true);
    for (const key of [`key-${duplicateReference}`, `key-${memoClash}`, `key-${staleKey}`]) expect(await keyRecorded(key)).toBe(false);

    // The opener and the batch of eight: two commits, nine appends, four sessions created (a replay creates none).
    expect(await sample(LEDGER_BATCH_SIZE.name, {}, '_count')).toBe(before.batches + 2);
    expect(await sample(LEDGER_BATCH_SIZE.name, {}, '_sum')).toBe(before.appends + 9);
    expect(await sample(LEDGER_EVENTS.name, created)).toBe(before.created + 4);
  });

  it('sends appends sharing a stream or a key straight to one at a time: the first wins, the second gets its answer', async () => {
    const [shared, keyed, other] = Array.from({ length: 3 }, () => randomUUID());
    const good = randomUUID();
    const results = await inOneBatch([
      createRequest(good, `ref-${good}`),
      createRequest(shared, `ref-${shared}-a`),
      createRequest(shared, `ref-${shared}-b`),
      createRequest(keyed, `ref-${keyed}`, { key: `key-${keyed}` }),
      createRequest(other, `ref-${other}`, { key: `key-${keyed}` }),
    ]);

    expect(count(/SAVEPOINT batch/)).toBe(0);
    expect(results.slice(0, 2).map((result) => valueOf(result).replayed)).toEqual([false, false]);
    expect(errorOf(results[2])).toMatchObject({ code: ErrorCode.ConcurrencyConflict, details: { stream_id: checkoutSessionStreamId(shared) } });
    expect(valueOf(results[3]).replayed).toBe(false);
    expect(valueOf(results[4])).toEqual({ ...valueOf(results[3]), replayed: true });
    expect(await sessionRow(shared)).toMatchObject({ reference: `ref-${shared}-a` });
    expect(await eventsOf(other)).toEqual([]);
  });

  it('wakes a publisher listening in this process instead of sending NOTIFY, and notifies through Postgres when none listens', async () => {
    const listener = await db.connect();
    const notified: string[] = [];
    listener.on('notification', (notice) => notified.push(notice.channel));
    await listener.query(`LISTEN ${EVENTS_COMMITTED_CHANNEL}`);
    const heard: number[] = [];
    const stopListening = localCommits.listen(() => heard.push(Date.now()));
    try {
      await appender.appendStreams(createRequest(randomUUID(), `ref-${randomUUID()}`), {});
      expect(heard).toHaveLength(1);
      expect(count(/pg_notify/)).toBe(0);
      // A replay appends nothing: nobody is woken.
      const id = randomUUID();
      await appender.appendStreams(createRequest(id, `ref-${id}`, { key: `key-${id}` }), {});
      await appender.appendStreams(createRequest(id, `ref-${id}`, { key: `key-${id}` }), {});
      expect(heard).toHaveLength(2);
      stopListening();

      await appender.appendStreams(createRequest(randomUUID(), `ref-${randomUUID()}`), {});
      expect(count(/pg_notify/)).toBe(1);
      await waitFor('the NOTIFY of the commit nobody in this process heard', () => notified.length === 1);
      expect(heard).toHaveLength(2);
    } finally {
      stopListening();
      listener.release(true); // its LISTEN ends with the connection
    }
  });

  describe('a connection lost under a batch', () => {
    beforeEach(() => {
      lost.length = 0;
    });

    it('given the connection is lost as the batch begins (a pooled connection the server had ended), then the batch runs again on a new connection and commits once', async () => {
      const id = randomUUID();
      const sent = statements.length;
      loseConnectionAt = /^BEGIN/;

      const reply = await appender.appendStreams(createRequest(id, `ref-${id}`, { key: `key-${id}` }), {});

      expect(reply).toMatchObject({ replayed: false, streams: [{ stream_id: checkoutSessionStreamId(id), version: 1 }] });
      expect(statements.slice(sent).filter((sql) => sql.startsWith('BEGIN'))).toHaveLength(2);
      expect(lost.map((error) => error.message)).toEqual(['Connection terminated unexpectedly']);
      expect(await eventsOf(id)).toEqual([{ version: 1, type: CheckoutSessionEventType.Created }]);
      expect(await keyRecorded(`key-${id}`)).toBe(true);
    });

    it('given the connection is lost once Postgres has committed, its answer unread, then the ledger looks the outcome up and answers the append as committed, not run again', async () => {
      const id = randomUUID();
      const sent = statements.length;
      loseConnectionUnreadAfter = /COMMIT$/;

      const reply = await appender.appendStreams(createRequest(id, `ref-${id}`, { key: `key-${id}` }), {});

      expect(reply).toMatchObject({ replayed: false, streams: [{ stream_id: checkoutSessionStreamId(id), version: 1 }] });
      expect(statements.slice(sent).filter((sql) => sql.startsWith('BEGIN'))).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(await eventsOf(id)).toEqual([{ version: 1, type: CheckoutSessionEventType.Created }]);
    });

    it('given the connection is lost as COMMIT is sent, then the append is answered as committed, once, not run again', async () => {
      const id = randomUUID();
      const sent = statements.length;
      loseConnectionAt = /COMMIT$/;

      const reply = await appender.appendStreams(createRequest(id, `ref-${id}`), {});

      expect(reply).toMatchObject({ replayed: false, streams: [{ stream_id: checkoutSessionStreamId(id), version: 1 }] });
      expect(statements.slice(sent).filter((sql) => sql.startsWith('BEGIN'))).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(await eventsOf(id)).toEqual([{ version: 1, type: CheckoutSessionEventType.Created }]);
    });

    it('given the connection is lost before the sent COMMIT left the client, then the ledger finds the batch rolled back and runs it again on a new connection, committed once', async () => {
      const id = randomUUID();
      const sent = statements.length;
      loseConnectionUnsent = /COMMIT$/;

      // No idempotency key: a batch run again after it had committed would be refused as a stale version.
      const reply = await appender.appendStreams(createRequest(id, `ref-${id}`), {});

      expect(reply).toMatchObject({ replayed: false, streams: [{ stream_id: checkoutSessionStreamId(id), version: 1 }] });
      expect(statements.slice(sent).filter((sql) => sql.startsWith('BEGIN'))).toHaveLength(2);
      expect(lost).toHaveLength(1);
      expect(await eventsOf(id)).toEqual([{ version: 1, type: CheckoutSessionEventType.Created }]);
    });
  });

  it('runs a batch of more than 64 that cannot go whole in transactions of at most 64 savepoints, so Postgres’ subtransaction cache never overflows', async () => {
    const taken = randomUUID();
    await appender.appendStreams(createRequest(taken, `ref-${taken}`), {});
    const good = Array.from({ length: 69 }, () => randomUUID());
    const sent = statements.length;
    const results = await inOneBatch([...good.slice(0, 40).map((id) => createRequest(id, `ref-${id}`)), createRequest(taken, `ref-${randomUUID()}`), ...good.slice(40).map((id) => createRequest(id, `ref-${id}`))]);

    const transactions = statements.slice(sent).join('\n').split(/^BEGIN/m).slice(1);
    const savepoints = transactions.map((sql) => sql.match(/^SAVEPOINT append$/gm)?.length ?? 0);
    // Tried whole (70), then in transactions of 64 and 6: the 64 holding the stale append one at a time, the 6 whole.
    expect(savepoints.filter((count) => count > 0)).toEqual([64]);
    // And no savepoint is ever opened inside another left open (a savepoint rolled back to stays open unless released),
    // which would give the outer one a subtransaction id of its own: at most 64 ids, never the 65th that overflows.
    expect(Math.max(...transactions.map(deepestSavepoints))).toBe(1);
    expect(errorOf(results[40])).toMatchObject({ code: ErrorCode.ConcurrencyConflict });
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(69);
    for (const id of [good[0], good[68]]) expect(await sessionRow(id)).toMatchObject({ status: 'PENDING', version: 1 });
  });

  it.each([
    ['a reference already taken', (id: string, taken: string) => createRequest(id, `ref-${taken}`)],
    ['a stale version', (_id: string, taken: string) => createRequest(taken, `ref-${randomUUID()}`)],
  ])('falls back for %s alone and still commits the rest of the batch', async (_case, failing) => {
    const taken = randomUUID();
    await appender.appendStreams(createRequest(taken, `ref-${taken}`), {});
    const good = Array.from({ length: 4 }, () => randomUUID());
    const odd = randomUUID();
    const results = await inOneBatch([...good.slice(0, 2).map((id) => createRequest(id, `ref-${id}`)), failing(odd, taken), ...good.slice(2).map((id) => createRequest(id, `ref-${id}`))]);

    expect(count(/ROLLBACK TO SAVEPOINT batch/)).toBe(1);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(4);
    expect(errorOf(results[2])).toBeInstanceOf(DomainError);
    for (const id of good) expect(await sessionRow(id)).toMatchObject({ status: 'PENDING', version: 1 });
    expect(await eventsOf(odd)).toEqual([]);
    expect(await eventsOf(taken)).toEqual([{ version: 1, type: CheckoutSessionEventType.Created }]);
  });
});
