import { context, trace } from '@opentelemetry/api';
import { requestContext, requestIdOf } from '@pp/platform';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { requestSpanContext, startRequestSpan } from './request-span';

/**
 * First stage of every request: settle the request id (the caller's, if well
 * formed, else a new UUID), echo it on the response, and run the rest of the
 * request inside requestContext and its server span so logs and bus calls
 * carry both.
 */
export function assignRequestId(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  request.requestId = requestIdOf(request.headers);
  request.principal = { kind: 'anonymous' };
  reply.header('X-Request-Id', request.requestId);
  context.with(startRequestSpan(request), () => requestContext.run({ requestId: request.requestId }, done));
}

/**
 * Reading the body leaves the async context of the socket, so the context is
 * entered again right before the handler (as @fastify/request-context does),
 * with the request's answer deadline, known by then (AnswerDeadline): the
 * handler's bus calls get no more time than is left of it.
 */
export function reenterRequestContext(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const current = requestContext.current();
  const { requestId, deadline } = request;
  if (current?.requestId === requestId && current.deadline === deadline && trace.getActiveSpan() === request.span) return done();
  context.with(requestSpanContext(request), () => requestContext.run(deadline === undefined ? { requestId } : { requestId, deadline }, done));
}
