import type { NatsConnection } from 'nats';

/**
 * The parts of nats.js's protocol handler (nats 2.x,
 * lib/nats-base-client/protocol.js) that flushOncePerTurn works with:
 * the buffer of protocol lines not yet written, its inline-flush limit,
 * the write of that buffer, and the two methods replaced.
 */
interface ProtocolHandler {
  outbound: { size(): number; fill(buffer: Uint8Array, ...payloads: Uint8Array[]): void };
  pendingLimit: number;
  flushPending(): void;
  sendCommand(command: string | Uint8Array, ...payloads: Uint8Array[]): void;
  close(): Promise<void>;
}

/**
 * Makes the connection write what it has to send once per turn of the event
 * loop (at setImmediate, as writeOncePerTurn does for Redis) instead of once
 * per microtask checkpoint, which nats.js does. Under load a service answers
 * and publishes from many I/O callbacks in one turn, each with its own
 * checkpoint, so each went out in its own write system call, each waking the
 * NATS server; now they share one. Nothing else changes: one buffer in
 * order, so messages keep their order; a buffer past nats.js's limit is
 * still written at once; `flush()` and `drain()` still write at once; and
 * `close()` writes what is pending first. An idle process writes in the
 * same turn as before (docs/PERFORMANCE.md, "What was changed for speed").
 *
 * nats.js has no option for this, so one method of its protocol handler is
 * replaced; a nats.js whose handler has another shape fails here, at
 * start-up, rather than running unflushed.
 */
export function flushOncePerTurn(nc: NatsConnection): void {
  const protocol = (nc as unknown as { protocol?: unknown }).protocol;
  if (!isProtocolHandler(protocol)) {
    throw new Error("flushOncePerTurn: this nats.js's protocol handler is not the one it was written for (nats 2.x)");
  }
  const encoder = new TextEncoder();
  let scheduled = false;
  const writePending = (): void => {
    scheduled = false;
    protocol.flushPending();
  };
  protocol.sendCommand = (command, ...payloads) => {
    protocol.outbound.fill(typeof command === 'string' ? encoder.encode(command) : command, ...payloads);
    if (protocol.outbound.size() >= protocol.pendingLimit) protocol.flushPending();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(writePending);
    }
  };
  const close = protocol.close.bind(protocol);
  protocol.close = () => {
    protocol.flushPending();
    return close();
  };
}

function isProtocolHandler(protocol: unknown): protocol is ProtocolHandler {
  if (typeof protocol !== 'object' || protocol === null) return false;
  const { outbound, pendingLimit, flushPending, sendCommand, close } = protocol as Partial<ProtocolHandler>;
  return (
    typeof outbound?.size === 'function' &&
    typeof outbound.fill === 'function' &&
    typeof pendingLimit === 'number' &&
    typeof flushPending === 'function' &&
    typeof sendCommand === 'function' &&
    typeof close === 'function'
  );
}
