import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CHECKOUT_SESSION_ID_PATTERN,
  type CheckoutSessionView,
  CreateCheckoutSessionBody,
  DomainError,
  ErrorCode,
  type IdempotencyToken,
  type MerchantScope,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { Idempotency, KeyScope } from '../access/request-params';
import { SecretKeyRoute } from '../access/route-access';
import { ApiJsonBody, ApiIdempotentResponse, ApiJsonResponse } from '../openapi/api-docs.decorators';
import { sendIdempotent } from '../idempotency/send-idempotent';
import { CHECKOUT_SESSION_CREATED_SCHEMA, CHECKOUT_SESSION_SCHEMA } from './checkout-sessions.schemas';

/** PRODUCT-RULES §4.1 and §4.2: authenticated, validated and made idempotent here; decided by the sessions service. */
@ApiTags('checkout sessions')
@Controller('v1/checkout/sessions')
export class CheckoutSessionsController {
  constructor(private readonly bus: BusClient) {}

  @Post()
  @SecretKeyRoute('checkout.write')
  @ApiOperation({ summary: 'Create a checkout session' })
  @ApiJsonBody(CreateCheckoutSessionBody)
  @ApiIdempotentResponse({ status: 201, description: 'Session created' }, CHECKOUT_SESSION_CREATED_SCHEMA)
  async create(
    @Body() body: CreateCheckoutSessionBody,
    @KeyScope() scope: MerchantScope,
    @Idempotency() idempotency: IdempotencyToken,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendIdempotent(reply, await this.bus.request('sessions.create.v1', { ...scope, body, idempotency }), 201);
  }

  @Get(':id')
  @SecretKeyRoute('checkout.write')
  @ApiOperation({ summary: 'Retrieve a checkout session of the key’s merchant and mode' })
  @ApiJsonResponse(200, 'The session', CHECKOUT_SESSION_SCHEMA)
  async retrieve(@Param('id') id: string, @KeyScope() scope: MerchantScope): Promise<CheckoutSessionView> {
    // An id no session can have is not worth a bus call.
    if (!CHECKOUT_SESSION_ID_PATTERN.test(id)) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
    return this.bus.request('sessions.get.v1', { ...scope, session_id: id });
  }
}
