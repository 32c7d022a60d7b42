import { ingestRawEmailBucketName } from '@pp/contracts';
import { blobBucketStream, connectNats } from '@pp/platform';
import { buildNotice, TestStack } from '@pp/testing';
import type { JetStreamManager, NatsConnection, ObjectStore } from 'nats';

/*
 * POST /v1/internal/ingest-email of a message larger than one NATS message goes through the
 * ingest's raw-mail bucket, which is bounded (INGEST_BUCKET_MAX_BYTES, tiny here). While it is full
 * the mail relay is told so and keeps its message; nothing the bucket holds is dropped for it.
 */
describe('e-mail ingest over HTTP while the raw-mail bucket is full', () => {
  const LIMIT = 8 * 1024 * 1024;
  let stack: TestStack;
  let harness: NatsConnection;
  let jsm: JetStreamManager;
  let bucket: ObjectStore;
  let bucketStream: string;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'ingest'], label: 'bucketfull', env: { INGEST_BUCKET_MAX_BYTES: String(LIMIT) } });
    harness = await connectNats(stack.env.NATS_URL, 'bucket-full-spec');
    jsm = await harness.jetstreamManager();
    bucketStream = blobBucketStream(ingestRawEmailBucketName(stack.namespace));
    bucket = await harness.jetstream().views.os(ingestRawEmailBucketName(stack.namespace));
  });
  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
  });

  /** A 1.6 MB message: more than one NATS message carries, so the gateway puts it in the bucket. */
  const large = (n: number) => {
    const padding = ('x'.repeat(76) + '\r\n').repeat(Math.ceil(1_600_000 / 78));
    const notice = buildNotice({ messageId: `<full${n}.${stack.namespace}@payments.interac.ca>`, to: 'nobody@deposits.example' });
    return notice.replace(/\r?\n\r?\n/, (blank) => `${blank}${padding}`);
  };
  const post = async (body: string) => {
    const response = await fetch(`${stack.url('gateway')}/v1/internal/ingest-email`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.INGEST_TOKEN}`, 'content-type': 'message/rfc822' },
      body,
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, string> };
  };

  it('answers 503 with Retry-After and says the store is full, keeps what the bucket holds, and takes the message once there is room', async () => {
    // What a compromised gateway could do: fill the bucket to all but 960 KiB, less than the message needs.
    const filler = Buffer.alloc(LIMIT - 960 * 1024, 3);
    await bucket.putBlob({ name: 'filler' }, filler);
    const held = (await jsm.streams.info(bucketStream)).state.bytes;

    const refused = await post(large(1));
    expect(refused).toEqual({ status: 503, retryAfter: '60', body: { error: 'The raw e-mail store is full; keep the message and retry later' } });
    // The refused put left none of its chunks; the object the bucket held is whole.
    expect((await jsm.streams.info(bucketStream)).state.bytes).toBe(held);
    expect((await bucket.getBlob('filler'))?.length).toBe(filler.length);

    await bucket.delete('filler');
    const retried = await post(large(1));
    expect(retried).toEqual({ status: 202, retryAfter: null, body: { id: expect.stringMatching(/^em_/), status: 'accepted' } });
  });

  it('answers 503 (unavailable, retry soon) rather than 500 when there is no bucket to put the message in', async () => {
    await jsm.streams.delete(bucketStream);
    const refused = await post(large(2));
    expect(refused).toEqual({ status: 503, retryAfter: '1', body: { error: 'The raw e-mail store is unavailable; keep the message and retry later' } });
    // The gateway may not create the bucket (only the migrate step may): it is still missing.
    await expect(jsm.streams.info(bucketStream)).rejects.toThrow(/stream not found/);
  });
});
