import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type IdempotencyToken, ListRefundsParams, type MerchantScope, REFUND_STATUSES, RequestRefundBody, type RefundView } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { Idempotency, KeyScope } from '../access/request-params';
import { SecretKeyRoute } from '../access/route-access';
import { ApiJsonBody, ApiIdempotentResponse, ApiJsonResponse, ApiPageLimitQuery } from '../openapi/api-docs.decorators';
import { sendIdempotent } from '../idempotency/send-idempotent';
import { listPage, parseListQuery } from '../http/list-query';
import { Actor, refundId } from './refund-params';
import { REFUND_LIST_SCHEMA, REFUND_SCHEMA } from './refunds.schemas';

/**
 * Full refunds of the key's merchant and mode (PRODUCT-RULES §D4): requested here,
 * decided by the refunds service. Test mode completes at once; live refunds
 * wait for the platform operator (admin-refunds.controller.ts).
 */
@ApiTags('refunds')
@Controller('v1/refunds')
export class RefundsController {
  constructor(private readonly bus: BusClient) {}

  @Post()
  @SecretKeyRoute('refunds.write')
  @ApiOperation({ summary: 'Request a full refund of a CONFIRMED payment (test mode: completed at once)' })
  @ApiJsonBody(RequestRefundBody)
  @ApiIdempotentResponse({ status: 201, description: 'Refund requested (live: REQUESTED; test: COMPLETED)' }, REFUND_SCHEMA)
  async request(
    @Body() body: RequestRefundBody,
    @KeyScope() scope: MerchantScope,
    @Actor() keyId: string,
    @Idempotency() idempotency: IdempotencyToken,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const answer = await this.bus.request('refunds.request.v1', {
      ...scope,
      payment_id: body.payment_id,
      reason: body.reason ?? null,
      requested_by: keyId,
      idempotency,
    });
    await sendIdempotent(reply, answer, 201);
  }

  @Get()
  @SecretKeyRoute('payments.read')
  @ApiOperation({ summary: 'List refunds, newest first' })
  @ApiQuery({ name: 'payment_id', required: false })
  @ApiQuery({ name: 'status', required: false, enum: [...REFUND_STATUSES] })
  @ApiPageLimitQuery()
  @ApiQuery({ name: 'starting_after', required: false, description: 'Id of the last refund of the previous page' })
  @ApiJsonResponse(200, 'Refunds (header X-Has-More: true|false)', REFUND_LIST_SCHEMA)
  list(@Query() raw: Record<string, unknown>, @KeyScope() scope: MerchantScope, @Res({ passthrough: true }) reply: FastifyReply): Promise<RefundView[]> {
    const params = parseListQuery(ListRefundsParams, raw);
    return listPage(() => this.bus.request('ledger.refunds.list.v1', { ...params, ...scope }), reply);
  }

  @Get(':id')
  @SecretKeyRoute('payments.read')
  @ApiOperation({ summary: 'Retrieve a refund of the key’s merchant and mode' })
  @ApiJsonResponse(200, 'The refund', REFUND_SCHEMA)
  retrieve(@Param('id') id: string, @KeyScope() scope: MerchantScope): Promise<RefundView> {
    return this.bus.request('ledger.refunds.get.v1', { ...scope, refund_id: refundId(id) });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @SecretKeyRoute('refunds.write')
  @ApiOperation({ summary: 'Withdraw a refund before it is approved; the payment may then be refunded again' })
  @ApiJsonResponse(200, 'The cancelled refund', REFUND_SCHEMA)
  async cancel(@Param('id') id: string, @KeyScope() scope: MerchantScope, @Actor() keyId: string): Promise<RefundView> {
    // `changed` is for an audit trail, which a key's cancel is not on (it is on the refund's events): not the client's.
    const { changed: _changed, ...refund } = await this.bus.request('refunds.cancel.v1', { ...scope, refund_id: refundId(id), cancelled_by: keyId });
    return refund;
  }
}
