import { nanos, type NatsConnection, type ObjectStore, StorageType } from 'nats';

/**
 * A JetStream object store for handing bytes larger than one NATS message
 * (the server's max_payload, 1 MB by default) from one service to another:
 * the sender puts them under a name and sends the name; the receiver gets and
 * deletes them. Objects left behind expire after `ttlMs`.
 */
export async function openBlobBucket(nc: NatsConnection, name: string, ttlMs: number, replicas: number): Promise<ObjectStore> {
  return nc.jetstream().views.os(name, { ttl: nanos(ttlMs), storage: StorageType.File, replicas });
}

/** Whether `bytes` travel inside a bus request with room for the JSON envelope and headers (base64 grows them by a third). */
export function fitsInOneMessage(nc: NatsConnection, bytes: number): boolean {
  const maxPayload = nc.info?.max_payload ?? 1_048_576;
  return Math.ceil(bytes / 3) * 4 + 8_192 <= maxPayload;
}
