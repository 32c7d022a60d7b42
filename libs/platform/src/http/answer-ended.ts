import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The status recorded for a request whose client left before it was answered (nginx's 499): no answer was sent. */
export const CLIENT_CLOSED_REQUEST = 499;

/** Answers written on the socket itself, past Fastify (a body that came too slowly: 408), by their status. */
const answeredOnSocket = new WeakMap<ServerResponse, number>();

/** Records that `response`'s request was answered `status` on its socket, so whenAnswerEnds reports that status rather than 499. */
export function answerOnSocket(response: ServerResponse, status: number): void {
  answeredOnSocket.set(response, status);
}

/**
 * Cuts the connection of an answer whose status went out already (an event
 * stream whose reader stopped reading, a body still coming after an early
 * refusal): counted with that status, since the server ended it, not the
 * client (499). An answer that has finished has left its socket
 * (`response.socket` is null then), so the request's `connection` is cut:
 * destroying the response alone would leave the connection open for as long
 * as the client keeps it.
 */
export function destroyAnswered(response: ServerResponse, connection: Socket | null = response.socket): void {
  answerOnSocket(response, response.statusCode);
  response.destroy();
  connection?.destroy();
}

/**
 * Calls `listener` once for every request, when its answer is done: at
 * Fastify's onResponse for an answer sent, or when the connection closes
 * for one never sent. Fastify runs onResponse only on the response's
 * 'finish', which never comes when the client gave up first (a timeout
 * shorter than ours, an event stream left) or when the answer went out on
 * the socket itself; those requests would be neither counted nor traced.
 * Register it before any hook that waits, so the request is heard from its
 * start.
 */
export function whenAnswerEnds(fastify: FastifyInstance, listener: (request: FastifyRequest, reply: FastifyReply, status: number) => void): void {
  const ended = new WeakSet<FastifyRequest>();
  const end = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    if (ended.has(request)) return;
    ended.add(request);
    listener(request, reply, status);
  };
  fastify.addHook('onRequest', (request, reply, done) => {
    const closed = () => {
      if (!reply.raw.writableFinished) end(request, reply, answeredOnSocket.get(reply.raw) ?? CLIENT_CLOSED_REQUEST);
    };
    // Fastify runs the hooks on after a client left: one that waited (a lookup) may find the response closed already.
    if (reply.raw.destroyed) closed();
    else reply.raw.once('close', closed);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    end(request, reply, reply.statusCode);
    done();
  });
}
