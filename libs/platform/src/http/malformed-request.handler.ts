import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { keptOrNewRequestId } from './request-id';

/** How long a refused connection stays after its answer for the client to read it and close its side; then it is dropped. */
const ANSWER_CLOSE_WAIT_MS = 1000;

/**
 * Requests Node's HTTP parser rejects (bad header bytes, oversized headers)
 * never reach Fastify's hooks; they still get the `{ "error": string }` shape
 * and a request id (the one a request already had, for one timed out while
 * its body arrived: limitRequestBodyTime). The connection is then closed
 * for good, whatever the client does with its side.
 */
export function answerMalformedRequests(server: Server): void {
  server.removeAllListeners('clientError');
  server.on('clientError', (error: NodeJS.ErrnoException & { requestId?: unknown }, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request headers too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'Request timed out']
          : [400, 'Bad Request', 'Validation failed: malformed HTTP request'];
    const body = JSON.stringify({ error: message });
    // Node's server sockets allow half-open connections: end() alone closes only our side, and a client that never
    // closes its own would keep the socket for good. It is destroyed once the client closes its side, or after a
    // moment: not as soon as the answer is written, when bytes the client is still sending would make the kernel
    // reset the connection and the client might never read the answer.
    const close = setTimeout(() => socket.destroy(), ANSWER_CLOSE_WAIT_MS).unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(close));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${keptOrNewRequestId(error.requestId)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
