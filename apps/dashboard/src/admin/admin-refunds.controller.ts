import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  AdminListRefundsParams,
  CompleteRefundBody,
  type DashboardPrincipal,
  FailRefundBody,
  type ListPage,
  REFUND_ID_PATTERN,
  RejectRefundBody,
  type RefundStageReply,
  type RefundView,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { Audited, targetResult } from '../audit/audited.interceptor';
import { Permit } from '../auth/route-access';
import { Principal } from '../auth/signed-in';
import { notFound } from '../http/not-found';
import { parseInput } from '../http/parse-input';

function refundId(id: string): string {
  if (!REFUND_ID_PATTERN.test(id)) throw notFound('Refund');
  return id;
}

/** Refunds answered to an action that found them already at its stage and changed nothing (the reply's `changed`, kept from the client). */
const unchanged = new WeakSet<RefundView>();

/** The refund of an action's reply, noted when the action changed nothing (a refunds service of the release before, still rolling out, does not say). */
async function stageAnswer(reply: Promise<RefundStageReply>): Promise<RefundView> {
  const { changed, ...refund } = await reply;
  if (changed === false) unchanged.add(refund);
  return refund;
}

/**
 * Audit entries of an admin's refund action belong to the refund's merchant, so its own audit list shows them too.
 * A repeat (a second admin's late click) is recorded as `already <stage>`, so the trail names one admin as having moved it.
 */
const onRefund =
  (detail: (refund: RefundView) => string | null = () => null) =>
  (refund: RefundView) => ({
    ...targetResult(refund),
    merchant_id: refund.merchant_id,
    livemode: refund.livemode,
    detail: unchanged.has(refund) ? `already ${refund.status.toLowerCase()}` : detail(refund),
  });

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
  @Audited('refund.approved', onRefund())
  approve(@Param('id') id: string, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    return stageAnswer(this.bus.request('refunds.approve.v1', { refund_id: refundId(id), admin_id: admin.id }));
  }

  @Post(':id/reject')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('refund.rejected', onRefund((refund) => refund.rejection_reason))
  reject(@Param('id') id: string, @Body() body: unknown, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    const { rejection_reason } = parseInput(RejectRefundBody, body);
    return stageAnswer(this.bus.request('refunds.reject.v1', { refund_id: refundId(id), admin_id: admin.id, rejection_reason }));
  }

  @Post(':id/mark-sent')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('refund.marked_sent', onRefund())
  markSent(@Param('id') id: string, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    return stageAnswer(this.bus.request('refunds.mark-sent.v1', { refund_id: refundId(id), admin_id: admin.id }));
  }

  @Post(':id/complete')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('refund.completed', onRefund((refund) => refund.outbound_reference))
  complete(@Param('id') id: string, @Body() body: unknown, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    const { outbound_reference, evidence_note } = parseInput(CompleteRefundBody, body);
    return stageAnswer(this.bus.request('refunds.complete.v1', { refund_id: refundId(id), admin_id: admin.id, outbound_reference, evidence_note }));
  }

  @Post(':id/fail')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('refund.failed', onRefund((refund) => refund.failure_reason))
  fail(@Param('id') id: string, @Body() body: unknown, @Principal() admin: DashboardPrincipal): Promise<RefundView> {
    const { failure_reason } = parseInput(FailRefundBody, body);
    return stageAnswer(this.bus.request('refunds.fail.v1', { refund_id: refundId(id), admin_id: admin.id, failure_reason }));
  }
}
