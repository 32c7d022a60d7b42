import type { FastifyInstance } from 'fastify';
import type { RouteAccess } from '../access/route-access';
import type { IdempotencyReservation } from '../idempotency/idempotency.store';
import type { KeyPrincipal, Principal } from '../identity/principal';
import type { RouteDeadline } from './answer-deadline.policy';

/** What the pipeline learns about a request, kept on Fastify's request object for the later stages. */
declare module 'fastify' {
  interface FastifyRequest {
    requestId: string;
    principal: Principal;
    idempotency: IdempotencyReservation | undefined;
    /** A key whose request the access hook left uncounted: its Idempotency-Key reservation counts it, or its refusal before that (idempotency.hooks.ts). */
    uncounted: KeyPrincipal | undefined;
    /** The request's change committed, whatever the answer says next (an audit entry that could not be stored): its Idempotency-Key must not be freed. */
    changeCommitted: boolean;
    /** The service behind the route recorded the request's Idempotency-Key with its change (sendIdempotent): it answers a retry itself. */
    keyRecordedByService: boolean;
    /** Epoch ms by which the request is answered, 503 if need be (AnswerDeadline); its bus calls get no more. Undefined: none (yet). */
    deadline: number | undefined;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Media types a route's body may have; JSON when absent. */
    bodyTypes?: readonly string[];
    /** How long the route's answer may take (answer-deadline.decorators.ts); the default when absent. */
    answerDeadline?: RouteDeadline;
  }
}

/** Declares the fields up front so every request object has the same shape (Fastify's advice for speed). */
export function decorateRequests(fastify: FastifyInstance): void {
  fastify.decorateRequest('requestId', '');
  fastify.decorateRequest('principal', null as never); // set to anonymous by the request-id hook
  fastify.decorateRequest('idempotency', undefined);
  fastify.decorateRequest('uncounted', undefined);
  fastify.decorateRequest('changeCommitted', false);
  fastify.decorateRequest('keyRecordedByService', false);
  fastify.decorateRequest('deadline', undefined);
  fastify.decorateRequest('span', undefined);
}
