import { createHash, randomUUID } from 'node:crypto';
import { DiscardPolicy, type JetStreamManager, type NatsConnection, nanos, StorageType } from 'nats';
import { openSpecConnection } from '../nats/testing/spec-nats';
import { blobBucketStream, deleteBlob, ensureBlobBucket, openBlobBucket, readBlob } from './blob-bucket';
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

  it('reads an object of many chunks by direct gets, byte for byte, among others; none of that name is null; one over the limit is refused unread', async () => {
    const store = await ensureBlobBucket(nc, { ...spec, maxBytes: 2_000_000 });
    const large = Buffer.from(Array.from({ length: 700_000 }, (_, i) => (i * 31) % 251));
    await store.putBlob({ name: 'before' }, Buffer.alloc(1_000, 1));
    await store.putBlob({ name: 'large' }, large);
    await store.putBlob({ name: 'after' }, Buffer.alloc(1_000, 2));
    const reader = await openBlobBucket(nc, bucket);

    expect(digest((await readBlob(nc, reader, bucket, 'large', 1_000_000))!)).toBe(digest(large));
    expect(await readBlob(nc, reader, bucket, 'after', 1_000_000)).toEqual(Buffer.alloc(1_000, 2));
    expect(await readBlob(nc, reader, bucket, 'missing', 1_000_000)).toBeNull();
    await expect(readBlob(nc, reader, bucket, 'large', 500_000)).rejects.toThrow('object large holds 700000 bytes, over the 500000 it may');
    await deleteBlob(nc, reader, bucket, 'large');
    expect(await readBlob(nc, reader, bucket, 'large', 1_000_000)).toBeNull();
  });

  it('refuses an object whose chunks do not match the digest its writer recorded', async () => {
    const store = await ensureBlobBucket(nc, spec);
    const info = await store.putBlob({ name: 'tampered' }, Buffer.alloc(10_000, 5));
    // Its chunk replaced by other bytes of the same size, as a writer of the bucket could.
    await jsm.streams.purge(stream, { filter: `$O.${bucket}.C.${info.nuid}` });
    await nc.jetstream().publish(`$O.${bucket}.C.${info.nuid}`, Buffer.alloc(10_000, 6));

    await expect(readBlob(nc, store, bucket, 'tampered', 1_000_000)).rejects.toThrow('object tampered was read corrupt');
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
