import { randomUUID } from 'node:crypto';
import { DiscardPolicy, type JetStreamManager, type NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';
import { openSpecConnection } from '../nats/testing/spec-nats';
import { ensureStream, streamName } from './ensure-stream';
import { isStorageFull } from './storage-full';

/*
 * ensureStream against the project's NATS server: the byte limit and discard policy of a stream
 * written by untrusted publishers, applied to a stream an older version created without them.
 * (A registry stream subject, since the harness may publish only those.)
 */
describe('ensureStream', () => {
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const namespace = `ens${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const stream = streamName(namespace, 'INGEST_EMAIL');
  const subject = `${namespace}.ingest.email.raw`;
  const WEEK_MS = 7 * 24 * 3600 * 1000;
  /** Room for three of the 1,000-byte messages below with their stored overhead, not for a fourth. */
  const limited = { name: stream, subjects: [subject], duplicateWindowMs: 120_000, maxAgeMs: WEEK_MS, replicas: 1, retention: RetentionPolicy.Workqueue };
  const limits = { maxBytes: 3_500, discard: DiscardPolicy.New, maxMsgSize: 1_200 };
  const publish = (fill: number) => nc.jetstream().publish(subject, Buffer.alloc(1_000, fill));

  beforeAll(async () => {
    nc = await openSpecConnection('ensure-stream-spec');
    jsm = await nc.jetstreamManager();
  });
  afterEach(() => jsm.streams.delete(stream).catch(() => undefined));
  afterAll(() => nc?.close());

  it('given a stream an older version created without limits, then it gets the byte limit, the discard policy and the message size, and keeps its messages and its other settings', async () => {
    await jsm.streams.add({
      name: stream,
      subjects: [subject],
      storage: StorageType.File,
      retention: RetentionPolicy.Workqueue,
      max_age: nanos(WEEK_MS),
      num_replicas: 1,
      description: 'set by an operator',
    });
    await publish(1);
    await publish(2);

    await ensureStream(nc, { ...limited, ...limits });

    const { config, state } = await jsm.streams.info(stream);
    expect(config).toMatchObject({ max_bytes: 3_500, discard: DiscardPolicy.New, max_msg_size: 1_200, retention: RetentionPolicy.Workqueue, description: 'set by an operator' });
    expect(state.messages).toBe(2);
    expect([...(await jsm.streams.getMessage(stream, { seq: 2 })).data]).toEqual([...Buffer.alloc(1_000, 2)]);
  });

  it('given a stream an older version created without its republication, then it gets it, or, on a NATS server that cannot change one (before 2.9.12), keeps none, gets its other settings, and the caller is told', async () => {
    await jsm.streams.add({ name: stream, subjects: [subject], storage: StorageType.File, retention: RetentionPolicy.Workqueue, max_age: nanos(WEEK_MS), num_replicas: 1 });
    const warnings: string[] = [];
    const republish = { src: subject, dest: `${namespace}.ingest.email.copy` };

    await ensureStream(nc, { ...limited, ...limits, republish }, (line) => warnings.push(line));

    const { config } = await jsm.streams.info(stream);
    expect(config).toMatchObject({ max_bytes: 3_500, max_msg_size: 1_200 });
    if (config.republish) {
      expect(config.republish).toMatchObject(republish);
      expect(warnings).toEqual([]);
    } else {
      expect(warnings).toEqual([expect.stringMatching(new RegExp(`^this NATS server cannot change the republication of stream ${stream} .*not republishing ${subject} to ${namespace}\\.ingest\\.email\\.copy; upgrade NATS`))]);
    }
  });

  it('given the stream is full, then a publish is refused as storage full and every earlier message survives; a larger message than allowed is refused too', async () => {
    await ensureStream(nc, { ...limited, ...limits });
    for (const fill of [1, 2, 3]) await publish(fill);

    const refused = await publish(4).catch((error: unknown) => error);
    expect(isStorageFull(refused)).toBe(true);
    expect(refused).toMatchObject({ api_error: { code: 503, description: expect.stringMatching(/maximum bytes exceeded/) } });
    const { state } = await jsm.streams.info(stream);
    expect({ messages: state.messages, first: state.first_seq, last: state.last_seq }).toEqual({ messages: 3, first: 1, last: 3 });

    await jsm.streams.purge(stream);
    const oversized = await nc.jetstream().publish(subject, Buffer.alloc(1_201)).catch((error: unknown) => error);
    expect(oversized).toMatchObject({ api_error: { description: expect.stringMatching(/message size exceeds maximum/) } });
    expect(isStorageFull(oversized)).toBe(false);
  });

  it('given a stream without limits in its spec (LEDGER_EVENTS), then it has none, and one set earlier is lifted', async () => {
    const unlimited = { name: stream, subjects: [subject], duplicateWindowMs: 120_000, maxAgeMs: WEEK_MS, replicas: 1 };
    await ensureStream(nc, { ...unlimited, ...limits });
    await ensureStream(nc, unlimited);
    expect((await jsm.streams.info(stream)).config).toMatchObject({ max_bytes: -1, discard: DiscardPolicy.Old, max_msg_size: -1, retention: RetentionPolicy.Limits });
  });
});
