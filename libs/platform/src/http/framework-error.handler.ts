import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { requestIdOf } from './request-id';

/**
 * Errors Fastify's router raises before any hook runs (a path with bad
 * percent-encoding such as /v1/checkout/sessions/%ff, a path parameter over
 * the length limit): answered in the `{ "error": string }` shape with a
 * request id, like every other error of an HTTP app, instead of Fastify's
 * own body.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [status, message] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, 'Validation failed: malformed URL (bad percent-encoding)']
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, 'URL too long']
        : [500, 'Internal error'];
  void reply
    .code(status)
    .header('X-Request-Id', requestIdOf(request.headers))
    .header('Cache-Control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: message }));
}
