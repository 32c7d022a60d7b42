import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type CheckoutSessionView, ExpireSessionBody, type IdempotencyToken, type MerchantScope, SimulatePaymentBody, type SimulatePaymentReply } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { Idempotency, KeyScope } from '../access/request-params';
import { SecretKeyRoute } from '../access/route-access';
import { CHECKOUT_SESSION_SCHEMA } from '../checkout-sessions/checkout-sessions.schemas';
import { ApiIdempotentResponse, ApiJsonBody, ApiJsonResponse } from '../openapi/api-docs.decorators';
import { sendIdempotent } from '../idempotency/send-idempotent';
import { PAYMENT_SCHEMA } from '../payments/payments.schemas';
import { viewSchema } from '../openapi/view-schema';

export const SIMULATE_REQUIRES_TEST_KEY = 'Simulate payment requires a test key';
export const EXPIRE_REQUIRES_TEST_KEY = 'Expiring a session early requires a test key';

/** The reply without `replayed`, which the answer carries as X-Cache-Lookup: HIT. */
const SIMULATION_SCHEMA = viewSchema<Omit<SimulatePaymentReply, 'replayed'>>({ transaction: PAYMENT_SCHEMA, session: CHECKOUT_SESSION_SCHEMA });

/** PRODUCT-RULES §4.6 with PRODUCT-RULES §D3's answers: test secret keys only (refused at the access hook, and again by the sessions service). */
@ApiTags('sandbox')
@Controller('v1/sandbox')
export class SandboxController {
  constructor(private readonly bus: BusClient) {}

  @Post('simulate-payment')
  @SecretKeyRoute('checkout.write', SIMULATE_REQUIRES_TEST_KEY)
  @ApiOperation({ summary: 'Simulate a payment for a test session (test secret keys only)' })
  @ApiJsonBody(SimulatePaymentBody)
  @ApiIdempotentResponse({ status: 200, description: 'The transaction and the session after it (header X-Cache-Lookup: HIT on a replay)' }, SIMULATION_SCHEMA)
  async simulate(
    @Body() body: SimulatePaymentBody,
    @KeyScope() scope: MerchantScope,
    @Idempotency() idempotency: IdempotencyToken,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const answer = await this.bus.request('payments.simulate.v1', {
      ...scope,
      ...(body.sessionId === undefined ? {} : { session_id: body.sessionId }),
      ...(body.reference === undefined ? {} : { reference: body.reference }),
      outcome: body.outcome,
      idempotency,
    });
    await sendIdempotent(reply, answer, 200);
  }

  @Post('expire-session')
  @HttpCode(200)
  @SecretKeyRoute('checkout.write', EXPIRE_REQUIRES_TEST_KEY)
  @ApiOperation({ summary: 'Expire a PENDING test session now, emitting checkout.session.expired (test secret keys only)' })
  @ApiJsonBody(ExpireSessionBody)
  @ApiJsonResponse(200, 'The session after it (a session no longer PENDING as it was)', CHECKOUT_SESSION_SCHEMA)
  expireSession(@Body() body: ExpireSessionBody, @KeyScope() scope: MerchantScope): Promise<CheckoutSessionView> {
    return this.bus.request('sessions.sandbox-expire.v1', { ...scope, session_id: body.sessionId });
  }
}
