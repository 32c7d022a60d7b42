import { NatsError } from 'nats';

/** JetStream's descriptions of a write refused for want of room. */
const NO_ROOM = /maximum bytes exceeded|insufficient (storage )?resources/i;

/**
 * Whether JetStream refused a write because there is no room: the stream's byte limit (a stream
 * that discards new messages refuses them once full) or the server's own storage. Such a refusal
 * lasts until consumers or expiry free room, so its sender should retry later, not at once.
 */
export function isStorageFull(error: unknown): boolean {
  const description = error instanceof NatsError ? error.api_error?.description : undefined;
  return description !== undefined && NO_ROOM.test(description);
}
