import type { FastifyReply } from 'fastify';

/**
 * Answers a service's reply to an idempotent command. `replayed` means the
 * service recognised the key although Redis had forgotten it: still a replay
 * for the client, so the same header and status as the idempotency hook's.
 */
export async function sendIdempotent<T extends { replayed: boolean }>(reply: FastifyReply, { replayed, ...body }: T, createdStatus: number): Promise<void> {
  if (replayed) reply.header('X-Cache-Lookup', 'HIT');
  await reply.code(replayed ? 200 : createdStatus).send(body);
}
