import type { Socket } from 'node:net';
import type Redis from 'ioredis';

/**
 * Makes `redis` write the commands it is given in one turn of the event loop
 * in one write: the first command of a turn corks the connection's socket,
 * and the turn's check phase (setImmediate) uncorks it, so Node writes the
 * turn's commands with one `writev`. Redis then reads them together and
 * answers them in one reply, as they were with ioredis's auto-pipelining.
 *
 * It replaces auto-pipelining, which builds an ioredis `Pipeline` for each
 * turn's commands. That constructor defines `length` on each pipeline with
 * a getter of its own, and V8 then keeps the pipeline, its commands and
 * whatever they hold (a request's whole state, in the gateway) alive through
 * the next young-generation collections: the gateway promoted about 6 KB a
 * request to its old generation, which its mark-compacts then had to collect
 * (docs/PERFORMANCE.md, "What a request leaves for the old generation").
 *
 * Commands keep their order (one socket, written in order); a command sent
 * while the connection is not ready goes to ioredis's offline queue as
 * before, and a `quit` is written at the end of its turn like any command.
 */
export function writeOncePerTurn(redis: Redis): void {
  const send = redis.sendCommand;
  let corked: Socket | undefined;
  const uncork = (): void => {
    const socket = corked;
    corked = undefined;
    socket?.uncork();
  };
  redis.sendCommand = function (this: Redis, ...args: Parameters<Redis['sendCommand']>) {
    const socket = this.stream as Socket | undefined;
    // A command given its own stream (a pipeline's or a transaction's) is written there, not to the socket.
    if (!corked && socket && !args[1]) {
      socket.cork();
      corked = socket;
      setImmediate(uncork);
    }
    return send.apply(this, args);
  };
}
