import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JsonLogger } from '../logging/json-logger';
import { DomainError, ErrorCode } from '@pp/contracts';
import { describeClientError, type ErrorAnswer } from './client-error';
import { CONCURRENCY_CONFLICT_ANSWER } from './concurrency-conflict';
import { HTTP_STATUS_OF } from './error-status';
import { internalErrorMessage } from './internal-error';
import { ensureRequestId } from './request-id';
import { urlPath } from './url-path';

/**
 * Errors of an HTTP app with no error mapping of its own (the dashboard):
 * exactly `{ "error": string }`; a service's refusal keeps its status and
 * message; a service down or a lost race is logged as a warning, and
 * anything that is not a client error is logged and answered 500 naming
 * only the request id.
 */
@Catch()
export class JsonErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: JsonLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (reply.sent) return;
    const requestId = ensureRequestId(request, reply);
    let answer = exception instanceof DomainError ? this.fromDomain(exception, request) : describeClientError(exception, request);
    if (!answer) {
      this.logger.error(exception instanceof Error ? exception : String(exception), { path: urlPath(request.url), method: request.method });
      answer = { status: 500, message: internalErrorMessage(requestId) };
    }
    if (answer.headers) reply.headers(answer.headers);
    void reply.code(answer.status).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify({ error: answer.message }));
  }

  /**
   * The answer to a service's refusal. A service that did not answer, or a
   * lost race, is answered with fixed words, so its detail (which subject,
   * which stream) is logged, with the fields the gateway's filter logs it
   * under: the path without its query (which may hold a searched name).
   */
  private fromDomain(error: DomainError, request: FastifyRequest): ErrorAnswer | undefined {
    const answer = domainErrorAnswer(error);
    const fields = { error: error.message, path: urlPath(request.url), method: request.method };
    if (answer?.status === 503) this.logger.warn('service unavailable', fields);
    else if (error.code === ErrorCode.ConcurrencyConflict) this.logger.warn('concurrency conflict', fields);
    return answer;
  }
}

/** A service's refusal across the bus keeps its message, but for a lost race (CONCURRENCY_CONFLICT_ANSWER); a service failure (5xx) is logged instead. */
export function domainErrorAnswer(error: DomainError): ErrorAnswer | undefined {
  const status = HTTP_STATUS_OF[error.code] ?? 500;
  if (status === 503) return { status, message: 'Service unavailable', headers: { 'Retry-After': '1' } };
  if (error.code === ErrorCode.ConcurrencyConflict) return CONCURRENCY_CONFLICT_ANSWER;
  return status >= 500 ? undefined : { status, message: error.message };
}
