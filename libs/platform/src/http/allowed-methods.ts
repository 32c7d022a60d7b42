import type { FastifyInstance } from 'fastify';
import { urlPath } from './url-path';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The methods some route serves at `url` (a concrete path, query ignored):
 * empty when the path is unknown, so a miss can be told apart as 404 (no such
 * resource) or 405 with an Allow header (wrong method).
 */
export function allowedMethods(server: FastifyInstance, url: string): string[] {
  const path = urlPath(url);
  return METHODS.filter((method) => server.findRoute({ method, url: path }) !== null);
}
