import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { JsonLogger, useJsonBodyParser, whenAnswerEnds } from '@pp/platform';
import type { RouteOptions } from 'fastify';
import { MAX_RAW_EMAIL_BYTES } from '@pp/contracts';
import { AccessHook } from '../access/access.hook';
import { RFC822 } from '../access/route-access';
import { IdempotencyHooks } from '../idempotency/idempotency.hooks';
import { ClientBudgets } from '../rate-limit/client-budgets';
import { serveApiDescription } from '../openapi/api-description';
import { AnswerDeadline } from './answer-deadline.hook';
import { checkContentType } from './content-type.hook';
import { EdgeValidationPipe } from './edge-validation.pipe';
import { ErrorResponseFilter } from './error-response.filter';
import { assignRequestId, reenterRequestContext } from './request-id.hook';
import { endRequestSpan } from './request-span';
import { decorateRequests } from './request-state';

/** Request bodies above this are refused with 413 (the 1 MB). */
export const BODY_LIMIT_BYTES = 1_048_576;

/**
 * The gateway's request pipeline, in order: request id and context → answer
 * deadline (AnswerDeadline) → client address budget (client-side checkout
 * routes) → access (credential, rate limit, key type and scope) →
 * Content-Type → body (JSON parser with edge checks) → idempotency →
 * validation → handler; every error
 * on the way is answered by ErrorResponseFilter as `{ "error": string }`, and
 * a POST refused before its Idempotency-Key reservation is counted then.
 */
export async function configureHttp(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  const idempotency = app.get(IdempotencyHooks);
  const deadline = app.get(AnswerDeadline);
  decorateRequests(fastify);
  fastify.addHook('onRoute', requireAccessDeclaration);
  fastify.addHook('onRequest', assignRequestId);
  // Right after the span starts, before any hook that waits (Redis, a key lookup): a client leaving then is still heard.
  whenAnswerEnds(fastify, endRequestSpan);
  fastify.addHook('onRequest', deadline.arm); // before the hooks that wait (Redis, a key lookup): they count against it
  fastify.addHook('onRequest', app.get(ClientBudgets).spendAddress);
  fastify.addHook('onRequest', app.get(AccessHook).handle);
  fastify.addHook('onRequest', checkContentType);
  fastify.addHook('preHandler', reenterRequestContext);
  fastify.addHook('preHandler', idempotency.reserve);
  fastify.addHook('onSend', deadline.noteAnswer); // first: the deadline leaves an answer under way alone
  fastify.addHook('onSend', idempotency.countRefused);
  fastify.addHook('onSend', idempotency.settle);
  app.useGlobalFilters(new ErrorResponseFilter(app.get(JsonLogger)));
  app.useGlobalPipes(new EdgeValidationPipe());

  await app.init(); // registers the routes, and Nest's own body parsers, which are replaced next
  useJsonBodyParser(fastify, BODY_LIMIT_BYTES);
  // Raw e-mails for the ingest route only (its route config lists the type); kept as bytes, never decoded here.
  fastify.addContentTypeParser(RFC822, { parseAs: 'buffer', bodyLimit: MAX_RAW_EMAIL_BYTES }, (_request, body, done) => done(null, body));
  serveApiDescription(app, fastify);
}

/** Fails the boot if a /v1 route forgot to say who may call it, rather than serving it unauthenticated. */
function requireAccessDeclaration(route: RouteOptions): void {
  const url = route.url ?? '';
  if ((url === '/v1' || url.startsWith('/v1/')) && !route.config?.access) {
    throw new Error(`route ${String(route.method)} ${url} declares no access (use SecretKeyRoute, AdminRoute, ...)`);
  }
}
