import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  AdminListRefundsParams,
  type AuditAction,
  CompleteRefundBody,
  FailRefundBody,
  REFUND_STATUSES,
  RejectRefundBody,
  type RefundStageReply,
  type RefundView,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminRoute } from '../access/route-access';
import { AdminAudit } from '../admin/admin-audit';
import { ApiJsonBody, ApiJsonResponse, ApiPageLimitQuery } from '../openapi/api-docs.decorators';
import { listPage, parseListQuery } from '../http/list-query';
import { Actor, refundId } from './refund-params';
import { REFUND_LIST_SCHEMA, REFUND_SCHEMA } from './refunds.schemas';

/**
 * The platform operator's live refund flow (PRODUCT-RULES §3.3), behind Bearer
 * $ADMIN_TOKEN, so it can be driven with curl until the dashboard's admin
 * console puts it behind /api/admin/refunds. Each action answers the refund;
 * repeating an action answers it unchanged; a wrong stage is 409. Every
 * action is recorded in the audit trail under the refund's merchant (a
 * repeat as `already <stage>`).
 */
@ApiTags('admin')
@Controller('v1/admin/refunds')
export class AdminRefundsController {
  constructor(
    private readonly bus: BusClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get()
  @AdminRoute()
  @ApiOperation({ summary: "Every merchant's refunds, newest first (status=REQUESTED: the approval queue)" })
  @ApiQuery({ name: 'status', required: false, enum: [...REFUND_STATUSES] })
  @ApiQuery({ name: 'payment_id', required: false })
  @ApiPageLimitQuery()
  @ApiQuery({ name: 'starting_after', required: false, description: 'Id of the last refund of the previous page' })
  @ApiJsonResponse(200, 'Refunds (header X-Has-More: true|false)', REFUND_LIST_SCHEMA)
  list(@Query() raw: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<RefundView[]> {
    const params = parseListQuery(AdminListRefundsParams, raw);
    return listPage(() => this.bus.request('ledger.refunds.admin-list.v1', params), reply);
  }

  @Get(':id')
  @AdminRoute()
  @ApiOperation({ summary: 'Retrieve any refund' })
  @ApiJsonResponse(200, 'The refund', REFUND_SCHEMA)
  retrieve(@Param('id') id: string): Promise<RefundView> {
    return this.bus.request('ledger.refunds.admin-get.v1', { refund_id: refundId(id) });
  }

  @Post(':id/approve')
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({ summary: 'REQUESTED → APPROVED' })
  @ApiJsonResponse(200, 'The approved refund', REFUND_SCHEMA)
  async approve(@Param('id') id: string, @Actor() admin: string, @Req() request: FastifyRequest): Promise<RefundView> {
    return this.recorded(request, 'refund.approved', await this.bus.request('refunds.approve.v1', { refund_id: refundId(id), admin_id: admin }));
  }

  @Post(':id/reject')
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({ summary: 'REQUESTED or APPROVED (not yet claimed by mark-sent) → REJECTED, with a reason' })
  @ApiJsonBody(RejectRefundBody)
  @ApiJsonResponse(200, 'The rejected refund', REFUND_SCHEMA)
  async reject(@Param('id') id: string, @Body() body: RejectRefundBody, @Actor() admin: string, @Req() request: FastifyRequest): Promise<RefundView> {
    const refund = await this.bus.request('refunds.reject.v1', { refund_id: refundId(id), admin_id: admin, rejection_reason: body.rejection_reason });
    return this.recorded(request, 'refund.rejected', refund, refund.rejection_reason);
  }

  @Post(':id/mark-sent')
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({ summary: 'APPROVED → SENT: the operator claims the refund before sending the outbound e-transfer; from then on it cannot be rejected, only completed or failed' })
  @ApiJsonResponse(200, 'The refund, SENT', REFUND_SCHEMA)
  async markSent(@Param('id') id: string, @Actor() admin: string, @Req() request: FastifyRequest): Promise<RefundView> {
    return this.recorded(request, 'refund.marked_sent', await this.bus.request('refunds.mark-sent.v1', { refund_id: refundId(id), admin_id: admin }));
  }

  @Post(':id/complete')
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({ summary: 'SENT → COMPLETED with the outbound reference and evidence: the payment becomes REFUNDED (one payment.refunded)' })
  @ApiJsonBody(CompleteRefundBody)
  @ApiJsonResponse(200, 'The completed refund', REFUND_SCHEMA)
  async complete(@Param('id') id: string, @Body() body: CompleteRefundBody, @Actor() admin: string, @Req() request: FastifyRequest): Promise<RefundView> {
    const refund = await this.bus.request('refunds.complete.v1', {
      refund_id: refundId(id),
      admin_id: admin,
      outbound_reference: body.outbound_reference,
      evidence_note: body.evidence_note,
    });
    return this.recorded(request, 'refund.completed', refund, refund.outbound_reference);
  }

  @Post(':id/fail')
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({ summary: 'SENT → FAILED: the outbound transfer bounced; the payment stays CONFIRMED and may be refunded again' })
  @ApiJsonBody(FailRefundBody)
  @ApiJsonResponse(200, 'The failed refund', REFUND_SCHEMA)
  async fail(@Param('id') id: string, @Body() body: FailRefundBody, @Actor() admin: string, @Req() request: FastifyRequest): Promise<RefundView> {
    const refund = await this.bus.request('refunds.fail.v1', { refund_id: refundId(id), admin_id: admin, failure_reason: body.failure_reason });
    return this.recorded(request, 'refund.failed', refund, refund.failure_reason);
  }

  /**
   * Answers the refund once its action is in the audit trail, under the refund's merchant and mode (so its own list
   * shows it). A repeat that found the refund already at the stage changed nothing: its entry says `already <stage>`,
   * so the trail names one admin as having moved it. `changed` is the trail's, not the client's; a refunds service of
   * the release before, still rolling out, answers without it, as for a change.
   */
  private async recorded(request: FastifyRequest, action: AuditAction, { changed, ...refund }: RefundStageReply, detail: string | null = null): Promise<RefundView> {
    await this.audit.record(request, {
      action,
      target_id: refund.id,
      merchant_id: refund.merchant_id,
      livemode: refund.livemode,
      detail: changed === false ? `already ${refund.status.toLowerCase()}` : detail,
    });
    return refund;
  }
}
