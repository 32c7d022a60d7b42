import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser rejects (bad header bytes, oversized headers)
 * never reach Fastify's hooks; they still get the `{ "error": string }` shape
 * and a request id.
 */
export function answerMalformedRequests(server: Server): void {
  server.removeAllListeners('clientError');
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request headers too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'Request timed out']
          : [400, 'Bad Request', 'Validation failed: malformed HTTP request'];
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
