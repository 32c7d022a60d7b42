import { HttpException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { allowedMethods } from './allowed-methods';

export interface ErrorAnswer {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

const MESSAGES: Record<number, string> = {
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body too large',
  415: 'Unsupported Content-Type',
};

/**
 * The answer to a 4xx raised by Nest or Fastify itself (unknown route, body
 * too large, bad media type, bad JSON ...), in words fit for `{ "error" }`;
 * undefined for anything else, which the app's own filter maps. A miss on a
 * path that exists under another method is 405 with Allow. `messages`
 * replaces the wording of a status (the gateway names its body limit).
 */
export function describeClientError(exception: unknown, request: FastifyRequest, messages: Record<number, string> = {}): ErrorAnswer | undefined {
  const status = statusOf(exception);
  if (status === undefined || status < 400 || status >= 500) return undefined;
  if (status === 404 && exception instanceof HttpException && request.server) {
    const allow = allowedMethods(request.server, request.url);
    // A handler's own 404 (its route exists for this method) stays a 404.
    if (allow.length > 0 && !allow.includes(request.method)) return { status: 405, message: messages[405] ?? MESSAGES[405], headers: { Allow: allow.join(', ') } };
  }
  const wording = messages[status] ?? MESSAGES[status];
  if (wording) return { status, message: wording };
  if (status === 400) return { status, message: `Validation failed: ${exception instanceof Error ? exception.message : 'bad request'}` };
  return { status, message: exception instanceof Error && exception.message ? exception.message : 'Request refused' };
}

/** Status carried by Nest's HttpExceptions and Fastify's own errors (body too large, bad media type, bad URL ...). */
function statusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  const status = (exception as { statusCode?: unknown })?.statusCode;
  return typeof status === 'number' ? status : undefined;
}
