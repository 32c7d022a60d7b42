import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { DomainError, ErrorCode, IDEMPOTENCY_KEY_REUSED, MAX_RAW_EMAIL_BYTES } from '@pp/contracts';
import { CONCURRENCY_CONFLICT_ANSWER, describeClientError, ensureRequestId, type ErrorAnswer, HTTP_STATUS_OF, internalErrorMessage, type JsonLogger, urlPath } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RFC822 } from '../access/route-access';
import { ApiError } from './api-error';

/** Seconds a client should wait before retrying when a service is down. */
export const SERVICE_RETRY_AFTER_SECONDS = 1;

/** The gateway's wording of Fastify's own refusals (its body limit and the one media type it parses). */
const CLIENT_MESSAGES: Record<number, string> = {
  413: 'Request body too large (limit 1 MB)',
  415: 'Unsupported Content-Type: send application/json',
};
/**
 * The same for the e-mail ingest route, which takes raw e-mails up to their own limit. (Its media type is
 * checked before Fastify's parsers, by checkContentType, which words its own 415.)
 */
const RAW_EMAIL_MESSAGES: Record<number, string> = {
  413: `Request body too large (limit ${MAX_RAW_EMAIL_BYTES / (1024 * 1024)} MB)`,
};
// (A request Fastify refused before routing has no route options.)
const clientMessagesFor = (request: FastifyRequest) => (request.routeOptions?.config?.bodyTypes?.includes(RFC822) ? RAW_EMAIL_MESSAGES : CLIENT_MESSAGES);

/**
 * The only place errors become HTTP: every failure, from a Fastify parser,
 * a hook, a handler or a service across the bus, is answered as exactly
 * `{ "error": string }` (PRODUCT-RULES §7). Unexpected errors are logged with their
 * stack and answered 500 naming the request id.
 */
@Catch()
export class ErrorResponseFilter implements ExceptionFilter {
  constructor(private readonly logger: JsonLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (reply.sent) return this.afterAnswer(exception, request);
    const answer = this.answer(exception, request);
    if (answer.headers) reply.headers(answer.headers);
    ensureRequestId(request, reply);
    reply.code(answer.status).type('application/json; charset=utf-8').send({ error: answer.message });
  }

  /**
   * An error once the request was answered (its deadline's 503 went out while the handler worked on): nothing more can
   * be sent, but an unexpected one must still be seen.
   */
  private afterAnswer(exception: unknown, request: FastifyRequest): void {
    if (exception instanceof ApiError || exception instanceof DomainError) return;
    this.logger.error('request failed after it was answered', { method: request.method, path: urlPath(request.url), error: exception instanceof Error ? exception.message : String(exception) });
  }

  private answer(exception: unknown, request: FastifyRequest): ErrorAnswer {
    if (exception instanceof ApiError) return { status: exception.status, message: exception.message, headers: exception.headers };
    if (exception instanceof DomainError) return this.fromDomain(exception, request);
    return describeClientError(exception, request, clientMessagesFor(request)) ?? this.internal(exception, request);
  }

  private fromDomain(error: DomainError, request: FastifyRequest): ErrorAnswer {
    const status = HTTP_STATUS_OF[error.code] ?? 500;
    if (status === 503) {
      this.logger.warn('service unavailable', { error: error.message, path: urlPath(request.url) });
      return { status, message: 'Service unavailable', headers: { 'Retry-After': String(SERVICE_RETRY_AFTER_SECONDS) } };
    }
    if (status === 500) return this.internal(error, request);
    if (error.code === ErrorCode.ConcurrencyConflict) {
      this.logger.warn('concurrency conflict', { error: error.message, path: urlPath(request.url) });
      return CONCURRENCY_CONFLICT_ANSWER;
    }
    if (status === 400 && !error.message.startsWith('Validation failed') && error.message !== IDEMPOTENCY_KEY_REUSED) {
      return { status, message: `Validation failed: ${error.message}` };
    }
    return { status, message: error.message };
  }

  private internal(exception: unknown, request: FastifyRequest): ErrorAnswer {
    this.logger.error(exception instanceof Error ? exception : String(exception), { path: urlPath(request.url), method: request.method });
    return { status: 500, message: internalErrorMessage(request.requestId) };
  }
}
