import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode, type IdempotencyToken, type MerchantScope, SimulatePaymentBody } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { Idempotency, KeyScope } from '../access/request-params';
import { SecretKeyRoute } from '../access/route-access';
import { CHECKOUT_SESSION_SCHEMA } from '../checkout-sessions/checkout-sessions.schemas';
import { ApiJsonBody, ApiJsonResponse } from '../openapi/api-docs.decorators';
import { TRANSACTION_SCHEMA } from '../payments/payments.schemas';

export const SIMULATE_REQUIRES_TEST_KEY = 'Simulate payment requires a test key';

const SIMULATION_SCHEMA = { type: 'object', required: ['transaction', 'session'], properties: { transaction: TRANSACTION_SCHEMA, session: CHECKOUT_SESSION_SCHEMA } };

/** PRODUCT-RULES §4.6 with PRODUCT-RULES §D3's answers: test secret keys only; decided by the sessions service. */
@ApiTags('sandbox')
@Controller('v1/sandbox')
export class SandboxController {
  constructor(private readonly bus: BusClient) {}

  @Post('simulate-payment')
  @SecretKeyRoute('checkout.write')
  @ApiOperation({ summary: 'Simulate a payment for a test session (test secret keys only)' })
  @ApiJsonBody(SimulatePaymentBody)
  @ApiJsonResponse(200, 'The transaction and the session after it', SIMULATION_SCHEMA)
  async simulate(
    @Body() body: SimulatePaymentBody,
    @KeyScope() scope: MerchantScope,
    @Idempotency() idempotency: IdempotencyToken,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (scope.livemode) throw new DomainError(ErrorCode.Forbidden, SIMULATE_REQUIRES_TEST_KEY);
    const { replayed, ...result } = await this.bus.request('payments.simulate.v1', {
      ...scope,
      ...(body.sessionId === undefined ? {} : { session_id: body.sessionId }),
      ...(body.reference === undefined ? {} : { reference: body.reference }),
      outcome: body.outcome,
      idempotency,
    });
    if (replayed) reply.header('X-Cache-Lookup', 'HIT');
    await reply.code(200).send(result);
  }
}
