import { healthSubject, LEDGER_EVENTS_STREAM, type StoredEvent } from '@pp/contracts';
import { connectNats, streamName } from '@pp/platform';
import { REPO_ROOT, ServiceProcess, TestStack, testInfra, waitFor } from '@pp/testing';
import { DiscardPolicy } from 'nats';
import { EVENTS_COMMITTED_CHANNEL } from '../event-store/group-commit.appender';
import { leaderIdleLimitMs } from './event-publisher';
import { PUBLICATION_ORDER_CHECK } from './transaction-id-order';
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A stack with only the ledger, and a consumer in the test that keeps every message its publisher sends. */
async function publisherStack(label: string, pollMs: number) {
  const stack = await TestStack.start({ services: ['ledger'], label, env: { LEDGER_PUBLISH_POLL_MS: String(pollMs) } });
  const nc = await connectNats(testInfra.natsUrl, `event-publisher-spec-${label}`);
  const stream = streamName(stack.namespace, LEDGER_EVENTS_STREAM);
  const jsm = await nc.jetstreamManager();
  await waitFor('the stack to lay out the stream', () => jsm.streams.info(stream).then(() => true));
  const messages = await (await nc.jetstream().consumers.get(stream)).consume();
  const received: Array<{ subject: string; event: StoredEvent; requestId?: string }> = [];
  void (async () => {
    for await (const msg of messages) received.push({ subject: msg.subject, event: msg.json<StoredEvent>(), requestId: msg.headers?.get('x-request-id') || undefined });
  })();
  const stop = async () => {
    await messages.close();
    await jsm.streams.delete(stream);
    await nc.close();
    await stack.stop();
  };
  /** How many messages the stream holds: told apart from `received`, it says whether the publisher or the consumer fell short. */
  const stored = async () => (await jsm.streams.info(stream)).state.messages;
  return { stack, received, stored, stop, jsm, stream };
}

/** A publisher stack for the enclosing describe: started before its tests, stopped after them. */
function usePublisherStack(label: string, pollMs: number): Awaited<ReturnType<typeof publisherStack>> {
  const publisher = {} as Awaited<ReturnType<typeof publisherStack>>;
  beforeAll(async () => {
    Object.assign(publisher, await publisherStack(label, pollMs));
  });
  afterAll(async () => {
    await publisher.stop?.();
  });
  return publisher;
}

describe('publication of committed events to JetStream', () => {
  const publisher = usePublisherStack('publisher', 100);

  /** One appender: its own connection, transactions that commit (or roll back) after a random delay. */
  async function appender(index: number, transactions: number): Promise<void> {
    const db = new Client({ connectionString: publisher.stack.database.url });
    await db.connect();
    try {
      for (let t = 0; t < transactions; t++) {
        const streamId = `pub-${index}`;
        await db.query('BEGIN');
        // Two inserts per transaction, so other transactions' positions fall between them.
        for (const type of ['test.first', 'test.second']) {
          await db.query(
            `INSERT INTO ledger.events (id, stream_id, version, type, schema_version, data, metadata)
             SELECT $1, $2, coalesce(max(version), 0) + 1, $3, 1, '{}', '{"merchant_id":"mer_pub","livemode":false}'
             FROM ledger.events WHERE stream_id = $2`,
            [`evt_${randomUUID()}`, streamId, type],
          );
        }
        await db.query('SELECT pg_sleep($1)', [Math.random() * 0.15]);
        // every fifth transaction rolls back: its positions stay a gap for ever
        await db.query(t % 5 === 4 ? 'ROLLBACK' : 'COMMIT');
      }
    } finally {
      await db.end();
    }
  }

  async function committedInTransactionOrder(): Promise<Array<{ id: string; position: number }>> {
    const db = new Client({ connectionString: publisher.stack.database.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string; position: string }>('SELECT id, position FROM ledger.events ORDER BY transaction_id, position');
      return rows.map((row) => ({ id: row.id, position: Number(row.position) }));
    } finally {
      await db.end();
    }
  }

  const receivedIds = () => publisher.received.map((message) => message.event.id);

  /** Exactly once, then order: separate assertions make a failure say which property broke. */
  function expectExactlyOnceInOrder(committed: Array<{ id: string }>): void {
    const ids = receivedIds();
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(committed.filter((event) => !ids.includes(event.id))).toEqual([]);
    expect(ids).toEqual(committed.map((event) => event.id));
  }

  it('delivers every committed event exactly once, in transaction order, despite out-of-sequence commits', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => appender(i, 10)));
    const committed = await committedInTransactionOrder();
    expect(committed).toHaveLength(12 * 8 * 2);

    await waitFor('every committed event on JetStream', () => publisher.received.length >= committed.length, { timeoutMs: 20_000 });
    expectExactlyOnceInOrder(committed);

    // Within each transaction and each stream, order is position order.
    const byStream = new Map<string, StoredEvent[]>();
    for (const { event } of publisher.received) byStream.set(event.stream_id, [...(byStream.get(event.stream_id) ?? []), event]);
    for (const events of byStream.values()) {
      expect(events.map((event) => event.version)).toEqual(events.map((_, i) => i + 1));
      expect(events.map((event) => event.position)).toEqual([...events.map((event) => event.position)].sort((a, b) => a - b));
    }
    expect(publisher.received[0].subject).toBe(`${publisher.stack.namespace}.ledger.events.fact.test.first`);
  });

  it('stores its checkpoint at the last event published within a moment', async () => {
    const db = new Client({ connectionString: publisher.stack.database.url });
    await db.connect();
    try {
      const last = async () =>
        (await db.query<{ pair: string }>(`SELECT transaction_id::text || '/' || position AS pair FROM ledger.events e ORDER BY e.transaction_id DESC, e.position DESC LIMIT 1`)).rows[0].pair;
      const stored = async () =>
        (await db.query<{ pair: string }>(`SELECT transaction_id::text || '/' || position AS pair FROM ledger.publication_checkpoints WHERE publisher = 'jetstream'`)).rows[0].pair;
      const expected = await last();
      await waitFor('the checkpoint at the last event published', async () => (await stored()) === expected, { timeoutMs: 2_000 });
    } finally {
      await db.end();
    }
  });

  it('resumes from its checkpoint after a crash without losing or repeating events', async () => {
    const before = publisher.received.length;
    await publisher.stack.stopService('ledger', 'SIGKILL');
    await Promise.all(Array.from({ length: 4 }, (_, i) => appender(100 + i, 3)));
    await publisher.stack.startService('ledger');
    await Promise.all(Array.from({ length: 4 }, (_, i) => appender(200 + i, 3)));

    const committed = await committedInTransactionOrder();
    expect(committed.length).toBeGreaterThan(before);
    await waitFor('the events committed around the crash', () => publisher.received.length >= committed.length, { timeoutMs: 20_000 });
    expectExactlyOnceInOrder(committed);
  });
});

describe('publication behind a transaction still open elsewhere', () => {
  // A poll far longer than the test waits: only the publisher's quick re-look can publish in time.
  const publisher = usePublisherStack('heldback', 30_000);

  it('holds a committed event back while an older transaction is open, and publishes it soon after that end, which sends no notification, long before its poll', async () => {
    const blocker = new Client({ connectionString: publisher.stack.database.url });
    const writer = new Client({ connectionString: publisher.stack.database.url });
    await Promise.all([blocker.connect(), writer.connect()]);
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT pg_current_xact_id()'); // now it holds the horizon back
      const id = `evt_${randomUUID()}`;
      await writer.query(
        `INSERT INTO ledger.events (id, stream_id, version, type, schema_version, data, metadata)
         VALUES ($1, 'held-1', 1, 'test.held', 1, '{}', '{"merchant_id":"mer_pub","livemode":false}')`,
        [id],
      );
      await writer.query(`SELECT pg_notify('ledger_events_committed', '')`); // what an append sends after its commit
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(publisher.received.map((message) => message.event.id)).not.toContain(id);

      await blocker.query('COMMIT');
      const ended = Date.now();
      // Not within a fixed second: another spec's write transaction in the shared cluster may hold it back a little longer.
      await waitFor('the held-back event on JetStream', () => publisher.received.some((message) => message.event.id === id), { timeoutMs: 10_000 });
      expect(Date.now() - ended).toBeLessThan(10_000);
    } finally {
      await Promise.all([blocker.end(), writer.end()]);
    }
  });
});

describe('publication of the appends of its own replica', () => {
  // A poll far longer than the test waits: only the wake from the group commit in the same process can publish in time.
  const publisher = usePublisherStack('localwake', 30_000);

  it('publishes an append of the leading replica at once, woken in process, with no NOTIFY through Postgres', async () => {
    const listener = new Client({ connectionString: publisher.stack.database.url });
    await listener.connect();
    const bus = await publisher.stack.bus(10_000);
    try {
      const notified: string[] = [];
      listener.on('notification', (notice) => notified.push(notice.channel));
      await listener.query(`LISTEN ${EVENTS_COMMITTED_CHANNEL}`);
      // The publisher has led since its stream exists (usePublisherStack waits for it).
      const reply = await bus.request('ledger.append.v1', {
        stream_id: `local-${randomUUID()}`,
        expected_version: 0,
        events: [{ type: 'test.local', schema_version: 1, data: {} }],
        metadata: { merchant_id: 'mer_pub', livemode: false },
      });
      const id = reply.events[0].id;
      const appended = Date.now();

      // Well before the 30 s poll, with no NOTIFY: woken in process. Not within a fixed second: a write
      // transaction open meanwhile in any database of the shared cluster (another spec seeding its data) holds
      // publication back until it ends, as it should (transaction ids, and so the publisher's horizon, are cluster-wide).
      await waitFor('the append on JetStream', () => publisher.received.some((message) => message.event.id === id), { timeoutMs: 10_000 });
      expect(Date.now() - appended).toBeLessThan(10_000);
      expect(notified).toEqual([]);
    } finally {
      await listener.end();
    }
  });
});

describe('publication when transaction ids pass a power of ten', () => {
  const publisher = usePublisherStack('xidorder', 100);

  it('publishes in numeric transaction order past 99…9 → 100…0, a backlog longer than a page losing nothing', async () => {
    const db = new Client({ connectionString: publisher.stack.database.url });
    await db.connect();
    try {
      // Two past transaction ids either side of a power of ten (as text, '100000' sorts before '99999'), one
      // order below the cluster's current id: at most a tenth of every id given out, so no transaction still
      // open anywhere in the cluster, which other spec files share, can be that old, and both are settled.
      // (The largest power passed could be a few seconds back under CI's load, held by another file's open
      // transaction.) The later one's 600 events come first by position.
      const { rows } = await db.query<{ current: string }>('SELECT pg_current_xact_id()::text AS current');
      const power = 10n ** BigInt(rows[0].current.length - 2);
      const insert = (ids: string[], transactionId: bigint) =>
        db.query(
          `INSERT INTO ledger.events (id, stream_id, version, type, schema_version, data, metadata, transaction_id)
           SELECT id, 'xid-' || id, 1, 'test.xid', 1, '{}', '{"merchant_id":"mer_pub","livemode":false}', $2::text::xid8
           FROM unnest($1::text[]) AS id`,
          [ids, transactionId.toString()],
        );
      const later = Array.from({ length: 600 }, () => `evt_${randomUUID()}`);
      const earlier = `evt_${randomUUID()}`;
      // In one transaction: rows of past transactions become visible together, never one below a checkpoint
      // already past them. Inserted apart, the publisher's poll could fall between the two, publish the later
      // 600 and move on (CI: received 600, checkpoint at 10000/600), as no real transaction can make it do.
      await db.query('BEGIN');
      await insert(later, power);
      await insert([earlier], power - 1n);
      await db.query('COMMIT');
      await db.query(`SELECT pg_notify('ledger_events_committed', '')`);

      await waitFor('all 601 events on JetStream', () => publisher.received.length >= 601, { timeoutMs: 20_000 }).catch(async (error: Error) => {
        // Which side stopped short: the publisher (stored, checkpoint) or the spec's consumer (received).
        const { rows: checkpoint } = await db.query('SELECT transaction_id::text, position FROM ledger.publication_checkpoints');
        throw new Error(`${error.message}: received ${publisher.received.length}, the stream holds ${await publisher.stored()}, checkpoint ${JSON.stringify(checkpoint)}`);
      });
      expect(publisher.received.map((message) => message.event.id)).toEqual([earlier, ...later]);
    } finally {
      await db.end();
    }
  });
});

/** Inserts one event per id in one transaction (as an append of several streams would), and wakes the publisher. */
async function insertEvents(db: Client, ids: readonly string[], type: string): Promise<void> {
  await db.query(
    `INSERT INTO ledger.events (id, stream_id, version, type, schema_version, data, metadata)
     SELECT id, 'ev-' || id, 1, $2, 1, '{}', '{"merchant_id":"mer_pub","livemode":false}' FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n) ORDER BY n`,
    [ids, type],
  );
  await db.query(`SELECT pg_notify('${EVENTS_COMMITTED_CHANNEL}', '')`);
}

const newIds = (count: number): string[] => Array.from({ length: count }, () => `evt_${randomUUID()}`);

describe('publication of the request behind each event', () => {
  const publisher = usePublisherStack('request-ids', 100);

  it('sends each event with its correlation_id as x-request-id, so the request can be followed past the ledger; none when it has none fit to keep', async () => {
    const db = new Client({ connectionString: publisher.stack.database.url });
    await db.connect();
    const [kept, none, unfit] = newIds(3);
    try {
      await db.query(
        `INSERT INTO ledger.events (id, stream_id, version, type, schema_version, data, metadata)
         SELECT id, 'rq-' || id, 1, 'test.request', 1, '{}', metadata::jsonb FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(id, metadata, n) ORDER BY n`,
        [
          [kept, none, unfit],
          [
            '{"merchant_id":"mer_pub","livemode":false,"correlation_id":"req-behind-1"}',
            '{"merchant_id":"mer_pub","livemode":false}',
            '{"merchant_id":"mer_pub","livemode":false,"correlation_id":"two words"}',
          ],
        ],
      );
      await db.query(`SELECT pg_notify('${EVENTS_COMMITTED_CHANNEL}', '')`);
    } finally {
      await db.end();
    }
    await waitFor('the three events on JetStream', () => publisher.received.length >= 3);
    const requestIdOf = (id: string) => publisher.received.find((message) => message.event.id === id)?.requestId;
    expect([requestIdOf(kept), requestIdOf(none), requestIdOf(unfit)]).toEqual(['req-behind-1', undefined, undefined]);
  });
});

describe('publication when JetStream refuses an event in the middle of a page', () => {
  const publisher = usePublisherStack('midpage', 100);

  it('stores its checkpoint at the last event acknowledged before the refusal, and publishes only the rest once JetStream takes them', async () => {
    const db = new Client({ connectionString: publisher.stack.database.url });
    await db.connect();
    try {
      // Room for six more messages, and a seventh refused (discard new) rather than an old one dropped.
      const { config, state } = await publisher.jsm.streams.info(publisher.stream);
      await publisher.jsm.streams.update(publisher.stream, { ...config, max_msgs: state.messages + 6, discard: DiscardPolicy.New });
      const ids = newIds(10);
      await insertEvents(db, ids, 'test.midpage');
      const pairOf = async (id: string) =>
        (await db.query<{ pair: string }>(`SELECT transaction_id::text || '/' || position AS pair FROM ledger.events WHERE id = $1`, [id])).rows[0].pair;
      const stored = async () =>
        (await db.query<{ pair: string }>(`SELECT transaction_id::text || '/' || position AS pair FROM ledger.publication_checkpoints WHERE publisher = 'jetstream'`)).rows[0]?.pair;
      const sixth = await pairOf(ids[5]);
      await waitFor('the checkpoint at the last event JetStream acknowledged', async () => (await stored()) === sixth, { timeoutMs: 10_000 });
      await waitFor('the six events JetStream took', () => publisher.received.length >= 6);
      expect(publisher.received.map((message) => message.event.id)).toEqual(ids.slice(0, 6));

      await publisher.jsm.streams.update(publisher.stream, { ...config, max_msgs: -1 });
      await waitFor('the refused events on JetStream', () => publisher.received.length >= ids.length, { timeoutMs: 10_000 });
      expect(publisher.received.map((message) => message.event.id)).toEqual(ids);
      await waitFor('the checkpoint at the last event', async () => (await stored()) === (await pairOf(ids[9])), { timeoutMs: 5_000 });
    } finally {
      await db.end();
    }
  });
});

describe('a publisher that freezes', () => {
  let second: ServiceProcess | undefined;
  // Declared before the stack's own hooks, so the extra replica stops before the stack does.
  afterAll(async () => {
    await second?.stop();
  });
  const publisher = usePublisherStack('frozen', 100);

  it('loses the lead to the other replica once Postgres ends its idle session, and nothing is lost or doubled when it wakes', async () => {
    const db = new Client({ connectionString: publisher.stack.database.url });
    await db.connect();
    const first = publisher.stack.process('ledger');
    let frozen = false;
    try {
      const leaders = async () =>
        (
          await db.query<{ pid: number }>(
            `SELECT a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
              WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database() AND a.application_name = 'ledger-publisher'`,
          )
        ).rows.map((row) => row.pid);
      const [frozenLeader] = await waitFor('the first replica leading', async () => ((await leaders()).length === 1 ? leaders() : undefined));
      second = new ServiceProcess('ledger', await publisher.stack.envFor('ledger'), join(REPO_ROOT, 'tmp', 'test-logs', publisher.stack.namespace, 'second'));
      await second.start();

      process.kill(first.pid!, 'SIGSTOP');
      frozen = true;
      const frozenAt = Date.now();
      const during = newIds(3);
      await insertEvents(db, during, 'test.frozen');
      const bound = leaderIdleLimitMs(100) + 2000 + 5000; // the idle limit, the other replica's retry, and slack for a loaded machine
      await waitFor('the events published by the other replica', () => during.every((id) => publisher.received.some((message) => message.event.id === id)), {
        timeoutMs: bound + 10_000,
      });
      expect(Date.now() - frozenAt).toBeLessThan(bound);
      expect(Date.now() - frozenAt).toBeGreaterThanOrEqual(leaderIdleLimitMs(100) - 1000); // not before the frozen leader's session ended
      const [leader] = await leaders();
      expect(leader).toBeDefined();
      expect(leader).not.toBe(frozenLeader);

      process.kill(first.pid!, 'SIGCONT');
      frozen = false;
      const after = newIds(3);
      await insertEvents(db, after, 'test.woken');
      await waitFor('the events after it woke', () => after.every((id) => publisher.received.some((message) => message.event.id === id)), { timeoutMs: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 2500)); // a leadership retry of the woken replica
      const { rows: committed } = await db.query<{ id: string }>('SELECT id FROM ledger.events ORDER BY transaction_id, position');
      expect(publisher.received.map((message) => message.event.id)).toEqual(committed.map((row) => row.id));
      expect(first.running).toBe(true);
    } finally {
      if (frozen) process.kill(first.pid!, 'SIGCONT');
      await db.end();
    }
  }, 120_000);
});

describe('publication after a logical restore into a cluster whose transaction ids are behind the event store', () => {
  const publisher = usePublisherStack('restored', 100);

  it('refuses to publish, saying why in its log and health answer instead of skipping new events, and publishes them once the ids are ahead again', async () => {
    const db = new Client({ connectionString: publisher.stack.database.url });
    await db.connect();
    const bus = await publisher.stack.bus();
    const health = () => bus.request(healthSubject('ledger'), {});
    const published = (ids: readonly string[]) => ids.every((id) => publisher.received.some((message) => message.event.id === id));
    try {
      // As before any restore: published at once, and the check is up.
      const before = newIds(1);
      await insertEvents(db, before, 'test.before-restore');
      await waitFor('the event before the restore on JetStream', () => published(before), { timeoutMs: 10_000 });
      expect((await health()).dependencies[PUBLICATION_ORDER_CHECK]).toEqual({ status: 'up', latency_ms: expect.any(Number) });

      // The restore: the ledger restarts on a database whose checkpoint holds an id one epoch above the cluster's.
      await publisher.stack.stopService('ledger');
      const { rows } = await db.query<{ stored: string; restored: string }>(
        `SELECT transaction_id::text AS stored, (pg_snapshot_xmax(pg_current_snapshot())::text::numeric + 4294967296)::text AS restored
           FROM ledger.publication_checkpoints WHERE publisher = 'jetstream'`,
      );
      const { stored, restored } = rows[0];
      await db.query(`UPDATE ledger.publication_checkpoints SET transaction_id = $1::xid8 WHERE publisher = 'jetstream'`, [restored]);
      await publisher.stack.startService('ledger');
      const after = newIds(2);
      await insertEvents(db, after, 'test.after-restore');

      const down = await waitFor('the health answer naming the check', async () => {
        const reply = await health();
        return reply.dependencies[PUBLICATION_ORDER_CHECK]?.status === 'down' && reply;
      });
      expect(down.status).toBe('down');
      expect(down.dependencies[PUBLICATION_ORDER_CHECK].error).toContain(`pg_resetwal -e ${(BigInt(restored) >> 32n) + 1n}`);
      const log = publisher.stack.process('ledger').logFile;
      const refusal = await waitFor('the refusal in the log', () =>
        readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line.includes('event publication refused'))
          .map((line) => JSON.parse(line) as { level: string; error: string })[0],
      );
      expect(refusal).toMatchObject({ level: 'error', error: expect.stringContaining(`the highest the event store holds (${restored})`) });
      await new Promise((resolve) => setTimeout(resolve, 2500)); // a leadership retry, and many polls
      expect(publisher.received.filter((message) => after.includes(message.event.id))).toEqual([]);
      expect(await stillAt(db, restored)).toBe(true);

      // Once the ids are ahead (here: the checkpoint set back), the next leadership retry publishes what waited.
      await db.query(`UPDATE ledger.publication_checkpoints SET transaction_id = $1::xid8 WHERE publisher = 'jetstream'`, [stored]);
      await waitFor('the events appended meanwhile on JetStream', () => published(after), { timeoutMs: 10_000 });
      expect((await health()).dependencies[PUBLICATION_ORDER_CHECK].status).toBe('up');
      expect(readFileSync(log, 'utf8')).toContain('event publication works again');
    } finally {
      await db.end();
    }
  }, 60_000);
});

/** Whether the stored checkpoint still has this transaction id: a refusing publisher writes none. */
async function stillAt(db: Client, transactionId: string): Promise<boolean> {
  const { rows } = await db.query<{ at: string }>(`SELECT transaction_id::text AS at FROM ledger.publication_checkpoints WHERE publisher = 'jetstream'`);
  return rows[0].at === transactionId;
}
