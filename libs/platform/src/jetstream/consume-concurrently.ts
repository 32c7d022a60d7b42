import type { JsMsg } from 'nats';
import { consumeTraced } from './jetstream-trace';

/**
 * Hands each message of a JetStream consumer to `handle`, each in its own
 * consumer span, with at most `limit` handled at once: the next message is
 * taken only when one finishes, so the ack wait covers only the messages
 * buffered, not a queue of unbounded work. Handlers settle their message
 * themselves (ack, nak, term). Resolves when the messages end (the consumer
 * closed) and every handler has finished. A handler that throws stops the
 * loop: the message taken next is handed back (nak), and the error is thrown
 * once the others have finished.
 *
 * `resumeAt`: once `limit` are in flight, how few must remain before more
 * are taken (limit - 1 unless given). Below the limit, the messages already
 * received are taken together, in one turn of the event loop; a low
 * `resumeAt` keeps them coming in such bursts under load, which handlers
 * that batch their round trips per turn (Batcher) turn into few statements
 * and requests, instead of one message at a time as each slot frees.
 */
export async function consumeConcurrently(
  messages: AsyncIterable<JsMsg>,
  limit: number,
  handle: (msg: JsMsg) => Promise<void>,
  resumeAt = limit - 1,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  try {
    for await (const msg of messages) {
      if (inFlight.size >= limit) while (inFlight.size > resumeAt) await Promise.race(inFlight);
      if (failure) {
        msg.nak();
        break;
      }
      const work: Promise<void> = consumeTraced(msg, () => handle(msg))
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    }
  } finally {
    await Promise.all(inFlight);
  }
  if (failure) throw failure.error;
}
