import type { FastifyInstance } from 'fastify';
import { answerOnSocket, destroyAnswered } from './answer-ended';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * Answers 408 and closes the connection of a request whose body has not
 * fully arrived within `limitMs` of its headers. Node's own requestTimeout
 * stops counting once the headers are in and the request is handed to the
 * app, so a client could trickle a body forever and hold the connection.
 * The answer goes the way of Node's own timeouts ('clientError',
 * answerMalformedRequests): `{ "error": "Request timed out" }`, then the
 * socket ends; when the app has answered already, the socket just ends.
 * The 408 names the request id the request was given, and is counted as
 * answered 408 (whenAnswerEnds).
 * Requests without a body pay nothing.
 */
export function limitRequestBodyTime(fastify: FastifyInstance, limitMs: number): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (!hasBody || raw.complete) return done();
    const timer = setTimeout(() => {
      if (raw.complete || raw.socket.destroyed) return;
      // Answered already (an early refusal): a second answer would corrupt the connection, which simply ends.
      if (reply.raw.headersSent) return destroyAnswered(reply.raw, raw.socket);
      answerOnSocket(reply.raw, 408);
      const requestId = reply.getHeader(REQUEST_ID_HEADER);
      fastify.server.emit('clientError', Object.assign(new Error('Request timed out'), { code: 'ERR_HTTP_REQUEST_TIMEOUT', requestId }), raw.socket);
    }, limitMs);
    const stop = () => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  });
}
