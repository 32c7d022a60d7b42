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
 */
export async function consumeConcurrently(messages: AsyncIterable<JsMsg>, limit: number, handle: (msg: JsMsg) => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  try {
    for await (const msg of messages) {
      if (inFlight.size >= limit) await Promise.race(inFlight);
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
