import { Controller, Get, Query } from '@nestjs/common';
import { type AdminPaymentView, ListAllPaymentsQuery, type ListPage } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { Permit } from '../auth/route-access';
import { parseInput } from '../http/parse-input';

/** Payments across merchants for platform admins; the review queue is `?status=REQUIRES_MANUAL_REVIEW`. */
@Controller('api/admin/payments')
export class AdminPaymentsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Permit('platform.operate')
  list(@Query() query: Record<string, unknown>): Promise<ListPage<AdminPaymentView>> {
    return this.bus.request('ledger.payments.list-all.v1', parseInput(ListAllPaymentsQuery, query));
  }
}
