import { DomainError, ErrorCode } from '@pp/contracts';
import { unsafeInputProblem } from '@pp/platform';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Every query string gets the checks bodies get from parseJsonBody (a NUL or
 * half a surrogate pair, which the services' Postgres refuses, and the
 * prototype-pollution keys): 400 before any route reads it, so no route's own
 * rules have to remember them.
 */
export function checkQuery(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const problem = unsafeInputProblem(request.query as object, 'query');
  done(problem ? new DomainError(ErrorCode.ValidationFailed, `Validation failed: ${problem}`) : undefined);
}
