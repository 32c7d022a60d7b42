import { Body, Controller, Get, Headers, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import type { PayerLocale } from '@pp/kernel';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PayerBudgets } from '../http/payer-budgets';
import { originAllowed, parseOrigin } from '../http/security-headers';
import { sendJson, sendPage } from '../http/send';
import { PayerSessionReader, unexpectedStatus } from '../hosted/payer-session.reader';
import { checkoutPage } from '../pages/checkout-page.template';
import { negotiateLocale } from '../pages/locale';
import { embedShell, messagePage } from '../pages/message-page.template';
import { ClientSessionResolver } from './client-session.resolver';

const NOT_ALLOWED_HERE = 'This site is not allowed to embed this merchant’s checkout (frame_ancestors)';

/**
 * A refusal the frame shows and reports to its parent (pp:error), framed by the origin it names, as PayerErrorFilter
 * frames its error pages: refused framing would leave the frame blank and the merchant's onError uncalled. It may go
 * to an origin missing from the merchant's frame_ancestors: it shows and says nothing of the merchant's or the session's.
 */
function refusalInFrame(reply: FastifyReply, status: number, locale: PayerLocale, parentOrigin: string): FastifyReply {
  return sendPage(reply, status, messagePage({ kind: 'notFound', locale, embed: { parentOrigin, status: 'ERROR' } }), parentOrigin);
}

/**
 * The embedded checkout frame (PRODUCT-RULES §4.8). Each document may be framed only
 * by the one origin it was opened for (CSP frame-ancestors), and that origin
 * must be in the merchant's frame_ancestors when the merchant lists any.
 * The client secret never appears in a URL: the parent page hands it over
 * by postMessage, and the frame sends it here in a POST body.
 */
@Controller('embed')
@UseGuards(PayerBudgets)
export class EmbedController {
  constructor(
    private readonly reader: PayerSessionReader,
    private readonly resolver: ClientSessionResolver,
  ) {}

  @Get()
  shell(
    @Query('pk') publishableKey: unknown,
    @Query('parent_origin') parentOriginParam: unknown,
    @Query('lang') lang: unknown,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ): FastifyReply {
    const locale = negotiateLocale(lang, acceptLanguage);
    const parentOrigin = parseOrigin(parentOriginParam);
    if (!parentOrigin) return sendPage(reply, 400, messagePage({ kind: 'notFound', locale }));
    if (typeof publishableKey !== 'string' || publishableKey.length > 200) return refusalInFrame(reply, 400, locale, parentOrigin);
    return sendPage(reply, 200, embedShell({ locale, parentOrigin, publishableKey }), parentOrigin);
  }

  /** The frame's script resolves the client secret it was given into the session to show. */
  @Post('session')
  async session(@Body() body: Record<string, unknown> | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { publishable_key: key, client_secret: secret } = body ?? {};
    const parentOrigin = parseOrigin(body?.parent_origin);
    if (typeof key !== 'string' || typeof secret !== 'string' || key.length > 200 || secret.length > 200 || !parentOrigin) {
      throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: publishable_key, client_secret and parent_origin are required');
    }
    // request.ip: the payer's address, from X-Forwarded-For only when the peer is a trusted proxy (TRUSTED_PROXIES).
    const session = await this.resolver.resolve(key, secret, request.ip);
    if (session.status === 'EXPIRED') throw new DomainError(ErrorCode.NotFound, 'Checkout session expired');
    const merchant = await this.reader.merchant(session.merchant_id);
    if (!originAllowed(parentOrigin, merchant.frame_ancestors)) throw new DomainError(ErrorCode.Forbidden, NOT_ALLOWED_HERE);
    return sendJson(reply, 200, { session_id: session.id });
  }

  @Get('sessions/:id')
  async page(
    @Param('id') id: string,
    @Query('parent_origin') parentOriginParam: unknown,
    @Query('lang') lang: unknown,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const locale: PayerLocale = negotiateLocale(lang, acceptLanguage);
    const parentOrigin = parseOrigin(parentOriginParam);
    if (!parentOrigin) return sendPage(reply, 400, messagePage({ kind: 'notFound', locale }));
    const { session, merchant } = await this.reader.sessionWithMerchant(id);
    if (!originAllowed(parentOrigin, merchant.frame_ancestors)) return refusalInFrame(reply, 403, locale, parentOrigin);
    const embed = { parentOrigin };
    switch (session.status) {
      case 'COMPLETED':
        return sendPage(reply, 200, messagePage({ kind: 'completed', locale, embed: { ...embed, status: 'COMPLETED', sessionId: session.id } }), parentOrigin);
      case 'EXPIRED':
        return sendPage(reply, 200, messagePage({ kind: 'expired', locale, embed: { ...embed, status: 'EXPIRED' } }), parentOrigin);
      case 'PENDING':
        return sendPage(reply, 200, checkoutPage({ session, merchant, locale, now: new Date(), embed, path: `/embed/sessions/${session.id}` }), parentOrigin);
      default:
        throw unexpectedStatus(session.status);
    }
  }
}
