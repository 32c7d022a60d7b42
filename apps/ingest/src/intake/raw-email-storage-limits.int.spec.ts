import { INGEST_RAW_BUCKET_TTL_MS, INGEST_RAW_EMAIL_MAX_MSG_SIZE, INGEST_RAW_EMAIL_SUBJECT, ingestRawEmailBucketName, ingestRawEmailStreamName, MAIL_PIPELINE } from '@pp/contracts';
import { blobBucketStream, connectNats, isStorageFull } from '@pp/platform';
import { buildNotice, sampleSum, scrape, TestStack, testInfra, waitFor } from '@pp/testing';
import { DiscardPolicy, type JetStreamManager, type NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';
import type { Pool } from 'pg';

/*
 * The raw-mail stream and bucket are bounded so that untrusted writers cannot fill the JetStream
 * volume: the migrate step (here the stack's, before its first service starts) brings those an
 * older version created (without limits) up to date, and a full stream refuses the mail
 * pipeline's publish while keeping every e-mail it holds.
 */
describe('storage limits of the raw e-mail stream and bucket', () => {
  const LIMIT = 8 * 1024 * 1024;
  let stack: TestStack;
  let harness: NatsConnection;
  let pipeline: NatsConnection;
  let jsm: JetStreamManager;
  let db: Pool;
  let stream: string;
  let subject: string;
  let sent = 0;

  /** A distinct e-mail of about `bytes`, under the 1 MB a NATS message may carry. */
  const email = (bytes = 1_000) => {
    const notice = buildNotice({ messageId: `<limits${++sent}.${stack.namespace}@payments.interac.ca>`, to: 'nobody@deposits.example' });
    const line = 'x'.repeat(76) + '\r\n';
    return Buffer.from(notice.replace(/\r?\n\r?\n/, (blank) => `${blank}${line.repeat(Math.ceil(bytes / line.length))}`));
  };
  const stored = async () => Number((await db.query('SELECT count(*) FROM ingest.emails')).rows[0].count);

  beforeAll(async () => {
    stack = await TestStack.start({
      services: [],
      label: 'ingestlimits',
      env: { INGEST_STREAM_MAX_BYTES: String(LIMIT), INGEST_BUCKET_MAX_BYTES: String(LIMIT) },
    });
    harness = await connectNats(stack.env.NATS_URL, 'storage-limits-spec');
    pipeline = await connectNats(testInfra.natsUrlOf(MAIL_PIPELINE), 'storage-limits-spec-pipeline');
    jsm = await harness.jetstreamManager();
    stream = ingestRawEmailStreamName(stack.namespace);
    subject = `${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`;

    // As the previous version created them: no byte limit, no message size, JetStream's default discard policy.
    await jsm.streams.add({ name: stream, subjects: [subject], storage: StorageType.File, retention: RetentionPolicy.Workqueue, max_age: nanos(7 * 24 * 3600 * 1000), num_replicas: 1 });
    const bucket = await harness.jetstream().views.os(ingestRawEmailBucketName(stack.namespace), { ttl: nanos(INGEST_RAW_BUCKET_TTL_MS), storage: StorageType.File, replicas: 1 });
    await bucket.putBlob({ name: 'waiting' }, Buffer.alloc(2_000_000, 1));
    await pipeline.jetstream().publish(subject, email());
    expect((await jsm.streams.info(stream)).config.max_bytes).toBe(-1);

    await stack.startService('ingest');
    db = await stack.sql();
  });

  afterAll(async () => {
    await Promise.all([harness?.close(), pipeline?.close()]);
    await stack?.stop();
  });

  it('gives the stream and the bucket an older version created their limits before the ingest starts, keeping what they hold', async () => {
    expect((await jsm.streams.info(stream)).config).toMatchObject({
      max_bytes: LIMIT,
      discard: DiscardPolicy.New,
      max_msg_size: INGEST_RAW_EMAIL_MAX_MSG_SIZE,
      retention: RetentionPolicy.Workqueue,
    });
    const bucket = await jsm.streams.info(blobBucketStream(ingestRawEmailBucketName(stack.namespace)));
    expect(bucket.config).toMatchObject({ max_bytes: LIMIT, discard: DiscardPolicy.New });
    expect(bucket.state.bytes).toBeGreaterThan(2_000_000);
    // The e-mail that waited in the stream across the upgrade is taken and stored.
    await waitFor('the e-mail published before the upgrade stored', async () => (await stored()) === 1);
    // How full each is, for the JetStreamStreamFilling alert: the bucket holds its 2 MB object of 8 MiB.
    const metrics = await scrape(stack.metricsUrl('ingest'));
    expect(sampleSum(metrics, 'pp_jetstream_stream_fill_ratio', { stream: 'OBJ_INGEST_RAW' })).toBeCloseTo(bucket.state.bytes / LIMIT, 2);
    expect(metrics.samples.filter((sample) => sample.name === 'pp_jetstream_stream_fill_ratio').map((sample) => sample.labels.stream).sort()).toEqual([
      'INGEST_EMAIL',
      'OBJ_INGEST_RAW',
    ]);
  });

  it('refuses the mail pipeline’s publish while the stream is full, keeps every e-mail it holds, and takes the refused one once there is room', async () => {
    await stack.stopService('ingest');
    const before = await stored();
    let accepted = 0;
    let refusal: unknown;
    let refused = Buffer.alloc(0);
    while (!refusal && accepted < 20) {
      refused = email(900_000);
      await pipeline
        .jetstream()
        .publish(subject, refused)
        .then(() => accepted++, (error: unknown) => (refusal = error));
    }
    expect(isStorageFull(refusal)).toBe(true);
    expect(refusal).toMatchObject({ api_error: { code: 503, description: expect.stringMatching(/maximum bytes exceeded/) } });
    // Nine e-mails of 900 kB fit in 8 MiB; the stream lost none of them for the refused tenth.
    expect(accepted).toBe(9);
    const { state } = await jsm.streams.info(stream);
    expect({ messages: state.messages, first: state.first_seq }).toEqual({ messages: 9, first: 2 });

    await stack.startService('ingest');
    await waitFor('every e-mail the full stream held stored', async () => (await stored()) === before + 9, { timeoutMs: 20_000 });
    // The pipeline kept the refused e-mail and publishes it again: there is room now.
    await pipeline.jetstream().publish(subject, refused);
    await waitFor('the e-mail refused before stored', async () => (await stored()) === before + 10, { timeoutMs: 10_000 });
  });
});
