import type { JsMsg } from 'nats';
import { type ConsumeTraceOptions, consumeTraced } from './jetstream-trace';

export interface ConcurrencyLimits {
  /** Messages handled at once, at most. */
  limit: number;
  /**
   * Once `limit` are in flight, how few must remain before more are taken
   * (limit - 1 unless given). Below the limit, the messages already received
   * are taken together, in one turn of the event loop; a low `resumeAt` keeps
   * them coming in such bursts under load, which handlers that batch their
   * round trips per turn (Batcher) turn into few statements and requests,
   * instead of one message at a time as each slot frees.
   */
  resumeAt?: number;
  /**
   * The payload bytes in flight, at most: a message that would pass this
   * waits until others finish (one is always taken when none is in flight,
   * whatever its size). Unbounded unless given; a consumer whose messages
   * may be large sets it so that `limit` large ones cannot exhaust its memory.
   */
  maxBytes?: number;
}

/**
 * Hands each message of a JetStream consumer to `handle`, each in its own
 * consumer span (`trace`: whether its publisher's trace context is trusted), with at most `limit` handled at once (and `maxBytes` of
 * payload): the next message is taken only when one finishes, so the ack wait
 * covers only the messages buffered, not a queue of unbounded work. Handlers
 * settle their message themselves (ack, nak, term). Resolves when the
 * messages end (the consumer closed) and every handler has finished. A
 * handler that throws stops the loop: the message taken next is handed back
 * (nak), and the error is thrown once the others have finished.
 */
export async function consumeConcurrently(
  messages: AsyncIterable<JsMsg>,
  { limit, resumeAt = limit - 1, maxBytes = Infinity }: ConcurrencyLimits,
  handle: (msg: JsMsg) => Promise<void>,
  trace: ConsumeTraceOptions = {},
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let bytesInFlight = 0;
  let failure: { error: unknown } | undefined;
  // One waiter at most (the loop), woken by whichever handler finishes next: racing every promise in flight
  // would hang a reaction on each of them at every wait, hundreds per message at a deep limit.
  let wakeLoop: (() => void) | undefined;
  const oneFinished = () => new Promise<void>((resolve) => (wakeLoop = resolve));
  try {
    for await (const msg of messages) {
      if (inFlight.size >= limit) while (inFlight.size > resumeAt) await oneFinished();
      const bytes = msg.data.length;
      while (inFlight.size > 0 && bytesInFlight + bytes > maxBytes) await oneFinished();
      if (failure) {
        msg.nak();
        break;
      }
      bytesInFlight += bytes;
      const work: Promise<void> = consumeTraced(msg, () => handle(msg), trace)
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => {
          inFlight.delete(work);
          bytesInFlight -= bytes;
          wakeLoop?.();
          wakeLoop = undefined;
        });
      inFlight.add(work);
    }
  } finally {
    await Promise.all(inFlight);
  }
  if (failure) throw failure.error;
}
