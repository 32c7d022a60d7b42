import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a stopping web app lets the requests in progress finish before it
 * closes every connection: well within the test harness's wait and the
 * deployments' 45 s grace, so the stop ends on its own.
 */
export const HTTP_DRAIN_MS = 5_000;
/** How often a stopping server ends the connections that have gone idle since the last look. */
const IDLE_LOOK_MS = 100;

/**
 * Makes an HTTP server's stop end in bounded time. Node's close() ends idle
 * keep-alive connections but waits for every other one, and it counts a
 * connection that was opened and never sent a byte as busy: one such
 * connection, from the event-stream spec's own process, held a gateway's stop
 * until it was killed.
 * Call the returned function as the stop begins: it ends those connections at
 * once (nothing was asked on them), those whose request has been answered as
 * they go idle, and after `drainMs` every connection still open. It answers a
 * function that ends these looks once the stop is done.
 */
export function boundStop(server: Server, drainMs = HTTP_DRAIN_MS): () => () => void {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return () => {
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    // A connection whose request ends during the stop goes idle, and Node ends idle ones only as close() begins.
    const idle = setInterval(() => server.closeIdleConnections(), IDLE_LOOK_MS);
    const deadline = setTimeout(() => server.closeAllConnections(), drainMs);
    idle.unref();
    deadline.unref();
    return () => {
      clearInterval(idle);
      clearTimeout(deadline);
    };
  };
}
