import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import { describeClientError, ensureRequestId, type ErrorAnswer, HTTP_STATUS_OF, type JsonLogger } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiateLocale } from '../pages/locale';
import { type MessageKind, messagePage } from '../pages/message-page.template';
import { PayerBudgetSpent } from './payer-budgets';
import { parseOrigin } from './security-headers';
import { sendJson, sendPage } from './send';

const PAYER_VISIBLE: ReadonlySet<ErrorCode> = new Set([
  ErrorCode.ValidationFailed,
  ErrorCode.Unauthorized,
  ErrorCode.Forbidden,
  ErrorCode.NotFound,
  ErrorCode.Conflict,
]);

/**
 * The payer's answer to a 500 or 503 (the error's own words name internal bus subjects and driver errors), naming
 * the request id (docs/PRODUCT-RULES.md: a 500 names it) for the payer to quote to support, who find the failure in the logs by it.
 */
export const checkoutUnavailable = (requestId: string): string =>
  `Checkout is temporarily unavailable; try again in a moment. If it persists, contact support with request id ${requestId}`;

/**
 * Every failure becomes a clear answer, never a stack trace: a payer page for
 * page requests, `{ "error": string }` for the scripts' JSON requests.
 * Unexpected errors are logged and shown as "temporarily unavailable".
 */
@Catch()
export class PayerErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: JsonLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const requestId = ensureRequestId(request, reply);
    const { status, message, headers } = this.describe(exception, request, requestId);
    if (headers) reply.headers(headers);
    // The route that matched, not the raw URL: the router decodes percent-escapes, so .../st%61tus is the status route too.
    const wantsJson = request.method !== 'GET' || request.routeOptions.url?.endsWith('/status') === true;
    if (wantsJson) {
      sendJson(reply, status, { error: message });
      return;
    }
    const query = request.query as Record<string, unknown> | undefined;
    const kind: MessageKind = status === 404 || status === 400 ? 'notFound' : 'unavailable';
    const locale = negotiateLocale(query?.lang, request.headers['accept-language']);
    // In the embedded frame the page must be shown there and tell the merchant's page (onError), or the frame stays blank.
    // It may be framed by the origin the frame names without the merchant's list: it shows and does nothing of the merchant's.
    const inFrame = request.routeOptions.url?.startsWith('/embed') === true; // EmbedController's pages
    const parentOrigin = inFrame ? (parseOrigin(query?.parent_origin) ?? undefined) : undefined;
    const embed = parentOrigin ? { parentOrigin, status: 'ERROR' as const } : null;
    // The page escapes the id as it escapes every value (pages/html.ts), though requestIdOf admits only plain ones.
    sendPage(reply, status, messagePage({ kind, locale, embed, requestId: status >= 500 ? requestId : undefined }), parentOrigin);
  }

  private describe(exception: unknown, request: FastifyRequest, requestId: string): ErrorAnswer {
    if (exception instanceof PayerBudgetSpent) return { status: 429, message: exception.message, headers: { 'Retry-After': String(exception.retryAfterSeconds) } };
    if (exception instanceof DomainError && exception.code === ErrorCode.ServiceUnavailable) {
      // The route that matched, not the raw URL, which holds the session id.
      this.logger.warn('service unavailable', { error: exception.message, route: request.routeOptions.url, method: request.method });
      return { status: 503, message: checkoutUnavailable(requestId) };
    }
    // A concurrency conflict or an internal error is not the payer's to see: it is logged and answered as unavailable below.
    if (exception instanceof DomainError && PAYER_VISIBLE.has(exception.code)) return { status: HTTP_STATUS_OF[exception.code], message: exception.message };
    // Nest's and Fastify's own refusals (unknown route, wrong method, body too large, bad JSON ...).
    const client = describeClientError(exception, request);
    if (client) return client;
    // The route again, never the raw URL: a session id is the hosted page's bearer credential (docs/SECURITY.md).
    this.logger.error(exception instanceof Error ? exception : String(exception), { route: request.routeOptions.url, method: request.method });
    return { status: 500, message: checkoutUnavailable(requestId) };
  }
}
