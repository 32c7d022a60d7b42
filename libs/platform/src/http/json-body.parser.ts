import { DomainError, ErrorCode } from '@pp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unsafeInputProblem } from './unsafe-input';

const refused = (problem: string): DomainError => new DomainError(ErrorCode.ValidationFailed, `Validation failed: ${problem}`);

/**
 * JSON objects only, checked once at the edge for what no service should
 * have to guard against (unsafeInputProblem); any refusal is 400
 * `Validation failed: …`, in every app's error shape.
 */
export function parseJsonBody(_request: FastifyRequest, text: string, done: (error: Error | null, body?: unknown) => void): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return done(refused('body is not valid JSON'));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return done(refused('body must be a JSON object'));
  const problem = unsafeInputProblem(body, 'body');
  return problem ? done(refused(problem)) : done(null, body);
}

/**
 * Makes parseJsonBody the app's only body parser: Nest's JSON and form
 * parsers and Fastify's text one would let NUL characters and half surrogate
 * pairs through to Postgres. Any other media type is then 415, unless the app
 * adds a parser of its own afterwards. Call it after app.init(), which
 * registers Nest's parsers. Without `bodyLimit`, the app's own limit applies.
 */
export function useJsonBodyParser(fastify: FastifyInstance, bodyLimit?: number): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, parseJsonBody);
}
