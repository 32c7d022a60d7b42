import { Controller, Get, Headers, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode, type MerchantScope, type PayerSessionView, sessionIdOfClientSecret } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KeyScope } from '../access/request-params';
import { PublishableKeyRoute } from '../access/route-access';
import { ApiJsonResponse } from '../openapi/api-docs.decorators';
import { ClientBudgets } from '../rate-limit/client-budgets';
import { setRateLimitHeaders } from '../rate-limit/key-rate-limiter';
import { PAYER_SESSION_SCHEMA } from './client-checkout.schemas';

export const CLIENT_SECRET_HEADER = 'x-client-secret';

/**
 * Client-side checkout (PRODUCT-RULES §4.8): the embedded frame opens a session with a
 * publishable key and the session's client secret. The secret travels in a
 * header, not the URL, so it stays out of access and error logs. Budgets:
 * per client address for every request, per session and per key once the
 * secret opened a session (rate-limit/client-budgets.ts).
 */
@ApiTags('client-side checkout')
@Controller('v1/client')
export class ClientCheckoutController {
  constructor(
    private readonly bus: BusClient,
    private readonly budgets: ClientBudgets,
  ) {}

  @Get('checkout_session')
  @PublishableKeyRoute('checkout.write')
  @ApiOperation({ summary: 'The session a client secret opens, as the payer may see it (publishable key of the session’s merchant and mode)' })
  @ApiHeader({ name: 'X-Client-Secret', required: true, description: 'client_secret of the checkout session' })
  @ApiJsonResponse(200, 'The session', PAYER_SESSION_SCHEMA)
  async session(
    @KeyScope() scope: MerchantScope,
    @Headers(CLIENT_SECRET_HEADER) clientSecret: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PayerSessionView> {
    if (!clientSecret) throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: X-Client-Secret header is required');
    // A secret of no secret's shape names no session: answered as an unknown one, with no bus request behind it.
    if (sessionIdOfClientSecret(clientSecret) === null) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
    const session = await this.bus.request('checkout-page.resolve-client-secret.v1', { ...scope, client_secret: clientSecret });
    // Only now, with the secret proven, are the session's and the merchant key's budgets spent.
    const key = request.principal;
    if (key.kind !== 'api_key') throw new Error('client checkout route reached without an API key');
    const spent = await this.budgets.spendOpenedSession(key, session.id);
    if (spent) setRateLimitHeaders(reply, spent);
    return session;
  }
}
