import { createHash, randomUUID } from 'node:crypto';
import { DiscardPolicy, type JetStreamManager, type NatsConnection, nanos, StorageType } from 'nats';
import { openSpecConnection } from '../nats/testing/spec-nats';
import { blobBucketStream, deleteBlob, ensureBlobBucket, openBlobBucket } from './blob-bucket';
import { isStorageFull } from './storage-full';

/* The raw-mail bucket's limits against the project's NATS server: its owner sets them, writers only open it. */
describe('blob buckets', () => {
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const bucket = `bb${randomUUID().replaceAll('-', '').slice(0, 12)}_INGEST_RAW`;
  const stream = blobBucketStream(bucket);
  const spec = { name: bucket, ttlMs: 60_000, replicas: 1, maxBytes: 300_000 };
  const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  const earlier = Buffer.alloc(200_000, 7);

  beforeAll(async () => {
    nc = await openSpecConnection('blob-bucket-spec');
    jsm = await nc.jetstreamManager();
  });
  afterEach(() => jsm.streams.delete(stream).catch(() => undefined));
  afterAll(() => nc?.close());

  it('given a bucket an older version created without a limit, when the migrate step ensures it, then it gets the limit and keeps its objects', async () => {
    const old = await nc.jetstream().views.os(bucket, { ttl: nanos(spec.ttlMs), storage: StorageType.File, replicas: 1 });
    await old.putBlob({ name: 'earlier' }, earlier);
    expect((await jsm.streams.info(stream)).config.max_bytes).toBe(-1);

    const store = await ensureBlobBucket(nc, spec);

    expect((await jsm.streams.info(stream)).config).toMatchObject({ max_bytes: 300_000, discard: DiscardPolicy.New, max_age: nanos(spec.ttlMs), num_replicas: 1 });
    expect(digest((await store.getBlob('earlier'))!)).toBe(digest(earlier));
  });

  it('given the bucket is full, then a put is refused as storage full, leaves none of its chunks, and the earlier object survives', async () => {
    const store = await ensureBlobBucket(nc, spec);
    await store.putBlob({ name: 'earlier' }, earlier);
    const { bytes } = (await jsm.streams.info(stream)).state;

    const refused = await store.putBlob({ name: 'later' }, Buffer.alloc(200_000, 8)).catch((error: unknown) => error);

    expect(isStorageFull(refused)).toBe(true);
    expect(await store.info('later')).toBeNull();
    expect((await jsm.streams.info(stream)).state.bytes).toBe(bytes);
    expect(digest((await store.getBlob('earlier'))!)).toBe(digest(earlier));
  });

  it('given no bucket yet, then a writer’s open fails and creates none (only the owner may)', async () => {
    await expect(openBlobBucket(nc, bucket)).rejects.toThrow(/stream not found/);
    await expect(jsm.streams.info(stream)).rejects.toThrow(/stream not found/);
  });

  it('deletes an object with its chunks, so that a full bucket empties as its objects are taken', async () => {
    const store = await ensureBlobBucket(nc, spec);
    await store.putBlob({ name: 'earlier' }, earlier);
    await deleteBlob(nc, await openBlobBucket(nc, bucket), bucket, 'earlier');
    expect(await store.get('earlier')).toBeNull();
    expect((await jsm.streams.info(stream)).state.bytes).toBeLessThan(1_000);
    await store.putBlob({ name: 'later' }, Buffer.alloc(200_000, 8));
  });
});
