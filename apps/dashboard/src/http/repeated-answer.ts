import type { FastifyReply } from 'fastify';

/** Answers given again for a repeated Idempotency-Key: their audit entries say so. */
const repeats = new WeakSet<object>();

/** Said at the end of a repeated action's audit detail. */
export const REPEAT_NOTE = '; a repeated request, answered again';

/** The note for `answer`'s audit entry: REPEAT_NOTE when it was answered again, else nothing. */
export const repeatNote = (answer: object): string => (repeats.has(answer) ? REPEAT_NOTE : '');

/**
 * The service's answer as the page gets it. When the service recognised the Idempotency-Key (a retry of an action
 * whose answer was lost, the bus deadline having passed after the service committed), it made nothing and answered
 * what that action made: 200 with X-Cache-Lookup: HIT, as the gateway answers its replays.
 */
export function answered<T extends object>(reply: FastifyReply, { replayed, ...made }: T & { replayed: boolean }): T {
  const answer = made as unknown as T;
  if (replayed) {
    reply.code(200).header('X-Cache-Lookup', 'HIT');
    repeats.add(answer);
  }
  return answer;
}
