import { createHash } from 'node:crypto';
import { DiscardPolicy, nanos, type NatsConnection, type ObjectStore, StorageType, type StoredMsg } from 'nats';
import { updateStreamSettings } from './ensure-stream';

/**
 * A JetStream object store for handing bytes larger than one NATS message
 * (the server's max_payload, 1 MB by default) from one service to another:
 * the sender puts them under a name and sends the name; the receiver gets and
 * deletes them. Objects left behind expire after `ttlMs`.
 */
export interface BlobBucketSpec {
  /** The bucket's name, namespace applied; its stream is `OBJ_<name>`. */
  name: string;
  ttlMs: number;
  /** Copies kept across a JetStream cluster (JETSTREAM_REPLICAS of the migrate step). */
  replicas: number;
  /**
   * Bytes the bucket may hold on the JetStream volume. A full bucket refuses a put (the object
   * store removes the chunks it wrote) and drops nothing it holds: the object store's stream
   * discards new messages, never old ones.
   */
  maxBytes: number;
}

/** The stream JetStream keeps a bucket's objects in. */
export const blobBucketStream = (bucket: string): string => `OBJ_${bucket}`;

/**
 * For the migrate step: creates the bucket, or brings an existing one (an older version's, without
 * a limit) up to the spec. Only the migrate identity may change its settings (bus access registry).
 */
export async function ensureBlobBucket(nc: NatsConnection, spec: BlobBucketSpec): Promise<ObjectStore> {
  const settings = { max_age: nanos(spec.ttlMs), num_replicas: spec.replicas, max_bytes: spec.maxBytes, discard: DiscardPolicy.New };
  // The object store creates a missing bucket with these settings, but leaves an existing one as it is.
  const store = await nc.jetstream().views.os(spec.name, { ttl: settings.max_age, storage: StorageType.File, replicas: spec.replicas, max_bytes: spec.maxBytes });
  await updateStreamSettings(await nc.jetstreamManager(), blobBucketStream(spec.name), settings);
  return store;
}

/**
 * For a writer or reader: opens the bucket the migrate step created. Fails ("stream not found")
 * while there is none; the object store would otherwise try to create it, which only the migrate
 * step may.
 */
export async function openBlobBucket(nc: NatsConnection, name: string): Promise<ObjectStore> {
  await (await nc.jetstreamManager()).streams.info(blobBucketStream(name));
  return nc.jetstream().views.os(name);
}

/** nats.js's manager has the direct get API (`allow_direct` streams, as object stores are) but leaves it out of the type it exports. */
interface WithDirectGets {
  direct: { getMessage(stream: string, query: { seq: number; next_by_subj: string }): Promise<StoredMsg> };
}

/** The object store's digest prefix: the rest is the SHA-256 of the object's bytes, base64 (URL-safe, padded). */
const SHA_256 = 'SHA-256=';

/**
 * An object's bytes, or null when there is none of that name, read chunk by chunk with direct gets
 * (`$JS.API.DIRECT.GET`): no consumer. The object store's own get creates a push consumer, and NATS
 * checks a push consumer's deliver subject against nothing but its own stream: a reader allowed to
 * create consumers on the bucket, who may also write its metadata (to delete objects), could have
 * the server deliver bytes it chose to any subject, past its own publish permissions (into
 * LEDGER_EVENTS, or another service's reply inbox). So readers are given no consumer right at all
 * (bus-permissions.ts). Checked as the object store's get checks: the size and the SHA-256 digest the
 * writer recorded; an object over `maxBytes` is refused before its chunks are read.
 */
export async function readBlob(nc: NatsConnection, store: ObjectStore, bucket: string, name: string, maxBytes: number): Promise<Buffer | null> {
  const info = await store.info(name);
  if (!info || info.deleted) return null;
  if (info.size > maxBytes) throw new Error(`object ${name} holds ${info.size} bytes, over the ${maxBytes} it may`);
  if (!info.digest.startsWith(SHA_256)) throw new Error(`object ${name} has an unknown digest: ${info.digest}`);
  const { direct } = (await nc.jetstreamManager()) as unknown as WithDirectGets;
  const chunkSubject = `$O.${bucket}.C.${info.nuid}`;
  const chunks: Uint8Array[] = [];
  let read = 0;
  let seq = 1;
  while (read < info.size) {
    const chunk = await direct.getMessage(blobBucketStream(bucket), { seq, next_by_subj: chunkSubject });
    chunks.push(chunk.data);
    read += chunk.data.length;
    seq = chunk.seq + 1;
  }
  const bytes = Buffer.concat(chunks);
  const recorded = Buffer.from(info.digest.slice(SHA_256.length), 'base64url');
  if (bytes.length !== info.size || !createHash('sha256').update(bytes).digest().equals(recorded)) {
    throw new Error(`object ${name} was read corrupt: its size or digest does not match what its writer recorded`);
  }
  return bytes;
}

/**
 * Deletes an object, freeing its chunks before writing the deletion marker: the object store
 * writes the marker first, which a full bucket (discarding new messages) may refuse, leaving
 * the bucket full until its objects expire.
 */
export async function deleteBlob(nc: NatsConnection, store: ObjectStore, bucket: string, name: string): Promise<void> {
  const info = await store.info(name);
  if (!info || info.deleted) return;
  await (await nc.jetstreamManager()).streams.purge(blobBucketStream(bucket), { filter: `$O.${bucket}.C.${info.nuid}` });
  await store.delete(name);
}

/** Whether `bytes` travel inside a bus request with room for the JSON envelope and headers (base64 grows them by a third). */
export function fitsInOneMessage(nc: NatsConnection, bytes: number): boolean {
  const maxPayload = nc.info?.max_payload ?? 1_048_576;
  return Math.ceil(bytes / 3) * 4 + 8_192 <= maxPayload;
}
