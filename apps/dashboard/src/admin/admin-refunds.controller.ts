import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import {
  AdminListRefundsParams,
  CompleteRefundBody,
  type DashboardPrincipal,
  FailRefundBody,
  type ListPage,
  REFUND_ID_PATTERN,
  RejectRefundBody,
  type RefundView,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { Audited, targetResult } from '../audit/audited.interceptor';
import { Permit } from '../auth/route-access';
import { Principal } from '../auth/signed-in';
import { parseInput } from '../http/parse-input';

function refundId(id: string): string {
  if (!REFUND_ID_PATTERN.test(id)) throw new NotFoundException('Refund not found');
  return id;
}

/** Audit entries of an admin's refund action belong to the refund's merchant, so its own audit list shows them too. */
const onRefund = (refund: RefundView) => ({ ...targetResult(refund), merchant_id: refund.merchant_id, livemode: refund.livemode });

/** The platform admins' refund queue, both modes (docs/PRODUCT-RULES.md §3.3); each action answers the refund, a wrong stage is 409. */
@Controller('api/admin/refunds')
export class AdminRefundsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Permit('platform.operate')
  list(@Query() query: Record<string, unknown>): Promise<ListPage<RefundView>> {
    return this.bus.request('ledger.refunds.admin-list.v1', parseInput(AdminListRefundsParams, query));
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('refund.approved', onRefund)
  approve(@Param('id') id: string, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    return this.bus.request('refunds.approve.v1', { refund_id: refundId(id), admin_id: admin.id });
  }

  @Post(':id/reject')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('refund.rejected', (refund: RefundView) => ({ ...onRefund(refund), detail: refund.rejection_reason }))
  reject(@Param('id') id: string, @Body() body: unknown, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    const { rejection_reason } = parseInput(RejectRefundBody, body);
    return this.bus.request('refunds.reject.v1', { refund_id: refundId(id), admin_id: admin.id, rejection_reason });
  }

  @Post(':id/mark-sent')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('refund.marked_sent', onRefund)
  markSent(@Param('id') id: string, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    return this.bus.request('refunds.mark-sent.v1', { refund_id: refundId(id), admin_id: admin.id });
  }

  @Post(':id/complete')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('refund.completed', (refund: RefundView) => ({ ...onRefund(refund), detail: refund.outbound_reference }))
  complete(@Param('id') id: string, @Body() body: unknown, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    const { outbound_reference, evidence_note } = parseInput(CompleteRefundBody, body);
    return this.bus.request('refunds.complete.v1', { refund_id: refundId(id), admin_id: admin.id, outbound_reference, evidence_note });
  }

  @Post(':id/fail')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('refund.failed', (refund: RefundView) => ({ ...onRefund(refund), detail: refund.failure_reason }))
  fail(@Param('id') id: string, @Body() body: unknown, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    const { failure_reason } = parseInput(FailRefundBody, body);
    return this.bus.request('refunds.fail.v1', { refund_id: refundId(id), admin_id: admin.id, failure_reason });
  }
}
