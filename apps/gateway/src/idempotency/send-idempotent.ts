import type { FastifyReply } from 'fastify';

/**
 * Answers a service's reply to an idempotent command. `replayed` means the
 * service recognised the key although Redis had forgotten it: still a replay
 * for the client, so the same header and status as the idempotency hook's.
 * The request is marked as one whose service records its key, so the
 * gateway may leave its answer unkept past the scope's bytes (IdempotencyHooks.settle).
 */
export async function sendIdempotent<T extends { replayed: boolean }>(reply: FastifyReply, { replayed, ...body }: T, createdStatus: number): Promise<void> {
  reply.request.keyRecordedByService = true;
  if (replayed) reply.header('X-Cache-Lookup', 'HIT');
  await reply.code(replayed ? 200 : createdStatus).send(body);
}
