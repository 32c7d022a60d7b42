import { Controller, Get, Headers } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode, type MerchantScope, type PayerSessionView } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { KeyScope } from '../access/request-params';
import { PublishableKeyRoute } from '../access/route-access';
import { ApiJsonResponse } from '../openapi/api-docs.decorators';
import { PAYER_SESSION_SCHEMA } from './client-checkout.schemas';

export const CLIENT_SECRET_HEADER = 'x-client-secret';

/**
 * Client-side checkout (SPEC §4.8): the embedded frame opens a session with a
 * publishable key and the session's client secret. The secret travels in a
 * header, not the URL, so it stays out of access and error logs.
 */
@ApiTags('client-side checkout')
@Controller('v1/client')
export class ClientCheckoutController {
  constructor(private readonly bus: BusClient) {}

  @Get('checkout_session')
  @PublishableKeyRoute('checkout.write')
  @ApiOperation({ summary: 'The session a client secret opens, as the payer may see it (publishable key of the session’s merchant and mode)' })
  @ApiHeader({ name: 'X-Client-Secret', required: true, description: 'client_secret of the checkout session' })
  @ApiJsonResponse(200, 'The session', PAYER_SESSION_SCHEMA)
  session(@KeyScope() scope: MerchantScope, @Headers(CLIENT_SECRET_HEADER) clientSecret: string | undefined): Promise<PayerSessionView> {
    if (!clientSecret) throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: X-Client-Secret header is required');
    return this.bus.request('checkout-page.resolve-client-secret.v1', { ...scope, client_secret: clientSecret });
  }
}
