import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ListPaymentsParams, type MerchantScope, PAYMENT_STATUSES, type PaymentView } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { KeyScope } from '../access/request-params';
import { SecretKeyRoute } from '../access/route-access';
import { ApiJsonResponse, ApiPageLimitQuery } from '../openapi/api-docs.decorators';
import { listSchema } from '../openapi/view-schema';
import { listPage, parseListQuery } from '../http/list-query';
import { PAYMENT_SCHEMA } from './payments.schemas';

/** PRODUCT-RULES §4.3: the key's merchant and mode only, newest first, paged with starting_after and X-Has-More. */
@ApiTags('payments')
@Controller('v1/payments')
export class PaymentsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @SecretKeyRoute('payments.read')
  @ApiOperation({ summary: 'List transactions (payments), newest first' })
  @ApiQuery({ name: 'reference', required: false, description: 'Partial match on etransfer_ref, comment or the session reference' })
  @ApiQuery({ name: 'status', required: false, enum: [...PAYMENT_STATUSES] })
  @ApiPageLimitQuery()
  @ApiQuery({ name: 'starting_after', required: false, description: 'Id of the last payment of the previous page' })
  @ApiJsonResponse(200, 'Payments (header X-Has-More: true|false)', listSchema(PAYMENT_SCHEMA))
  list(
    @Query() raw: Record<string, unknown>,
    @KeyScope() scope: MerchantScope,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PaymentView[]> {
    const params = parseListQuery(ListPaymentsParams, raw);
    return listPage(() => this.bus.request('ledger.payments.list.v1', { ...params, ...scope }), reply);
  }
}
