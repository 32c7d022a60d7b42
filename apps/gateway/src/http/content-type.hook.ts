import { NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error';

const JSON_ONLY = ['application/json'] as const;

/**
 * A request that carries a body must say it is JSON (UTF-8), checked before
 * the body is read; anything else is 415. A route that takes another media
 * type (e-mail ingest: message/rfc822) lists it in its route config as
 * `bodyTypes` and registers a parser for it; such a body is taken as bytes,
 * so a charset parameter says nothing the route reads (a relay's
 * `charset=us-ascii` is no reason to refuse the e-mail).
 */
export async function checkContentType(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!hasBody(request)) return;
  // No route takes it (an unknown path, or a method its path does not take): answered 404 or 405 before the body is
  // read. The access hook knows no credential to ask for there, so parsing it would be parser time for anyone.
  if (request.is404) throw new NotFoundException();
  const bytes = request.routeOptions.config.bodyTypes;
  const accepted = bytes ?? JSON_ONLY;
  const header = request.headers['content-type'] ?? '';
  const [mediaType = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  const charset = bytes ? undefined : parameters.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (!accepted.includes(mediaType) || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw new ApiError(415, `Unsupported Content-Type: send ${accepted.join(' or ')}`);
  }
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
