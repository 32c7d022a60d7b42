import { randomUUID } from 'node:crypto';
import { REQUEST_ID_PATTERN } from '@pp/sdk';
import { requestContext } from '../logging/request-context';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Whether an offered request id (an HTTP header, a bus message's) may be kept as it is: short and plain (the SDK's rule), so it can be logged and echoed safely. */
export const isWellFormedRequestId = (offered: unknown): offered is string => typeof offered === 'string' && REQUEST_ID_PATTERN.test(offered);

/** The id offered if well formed, else a new UUID. */
export const keptOrNewRequestId = (offered: unknown): string => (isWellFormedRequestId(offered) ? offered : randomUUID());

/** The request id of a request: the caller's X-Request-Id if well formed, else a new UUID. */
export function requestIdOf(headers: Record<string, string | string[] | undefined>): string {
  return keptOrNewRequestId(headers[REQUEST_ID_HEADER]);
}

interface HookTarget {
  addHook(
    name: 'onRequest' | 'preHandler',
    hook: (
      request: { headers: Record<string, string | string[] | undefined> },
      reply: { header(name: string, value: string): unknown; getHeader(name: string): unknown },
      done: () => void,
    ) => void,
  ): unknown;
}

/**
 * For the web apps without a request context of their own (checkout,
 * dashboard): every answer carries X-Request-Id, and the request runs in
 * requestContext, so its logs and its bus calls carry the same id to the
 * services it calls. Reading the body leaves the async context of the
 * socket, so it is entered again before the handler.
 */
export function carryRequestIds(app: HookTarget): void {
  app.addHook('onRequest', (request, reply, done) => {
    const requestId = requestIdOf(request.headers);
    reply.header('X-Request-Id', requestId);
    requestContext.run({ requestId }, done);
  });
  app.addHook('preHandler', (_request, reply, done) => {
    const requestId = String(reply.getHeader(REQUEST_ID_HEADER));
    if (requestContext.current()?.requestId === requestId) return done();
    requestContext.run({ requestId }, done);
  });
}

/**
 * For error filters: some refusals bypass the onRequest hooks (Fastify's 404
 * router answers a badly encoded unknown path directly), so the id is set
 * here if no hook did. Answers the request's id.
 */
export function ensureRequestId(request: { headers: Record<string, string | string[] | undefined> }, reply: { getHeader(name: string): unknown; header(name: string, value: string): unknown }): string {
  const already = reply.getHeader(REQUEST_ID_HEADER);
  if (already) return String(already);
  const requestId = requestIdOf(request.headers);
  reply.header('X-Request-Id', requestId);
  return requestId;
}
