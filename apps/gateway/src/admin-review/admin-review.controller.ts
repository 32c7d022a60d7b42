import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  type AdminPaymentView,
  DEFAULT_QUARANTINE_PAGE_LIMIT,
  DomainError,
  EMAIL_ID_PATTERN,
  ErrorCode,
  ListAllPaymentsQuery,
  ListQuarantineParams,
  MAX_ADMIN_PAGE_LIMIT,
  QUARANTINE_STATUSES,
  type QuarantinedEmailView,
  type RetryQuarantinedEmailReply,
  PAYMENT_STATUSES,
  QUARANTINE_RELEASE_TIMEOUT_MS,
  quarantineReleaseDetail,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminRoute } from '../access/route-access';
import { AdminAudit, adminTokenActor } from '../admin/admin-audit';
import { LongestCall } from '../http/answer-deadline.decorators';
import { ApiJsonResponse, ApiPageLimitQuery } from '../openapi/api-docs.decorators';
import { listSchema } from '../openapi/view-schema';
import { listPage, parseListQuery } from '../http/list-query';
import { ADMIN_PAYMENT_SCHEMA, QUARANTINE_RELEASE_SCHEMA, QUARANTINED_EMAIL_SCHEMA } from './admin-review.schemas';

/**
 * What platform admins review from live e-mail ingest (Bearer $ADMIN_TOKEN):
 * mail addressed to no known merchant (quarantine) and payments across
 * merchants by status (the REQUIRES_MANUAL_REVIEW queue). Lists are newest
 * first with limit, starting_after and X-Has-More, like the merchant lists.
 */
@ApiTags('admin')
@Controller('v1/admin')
export class AdminReviewController {
  constructor(
    private readonly bus: BusClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get('ingest/quarantine')
  @AdminRoute()
  @ApiOperation({ summary: 'Transfer e-mails addressed to no known deposit address, newest first' })
  @ApiQuery({ name: 'status', required: false, enum: [...QUARANTINE_STATUSES], description: 'quarantined (default) or released' })
  @ApiPageLimitQuery(MAX_ADMIN_PAGE_LIMIT, DEFAULT_QUARANTINE_PAGE_LIMIT)
  @ApiQuery({ name: 'starting_after', required: false, description: 'Id (em_…) of the last e-mail of the previous page' })
  @ApiJsonResponse(200, 'Quarantined e-mails (header X-Has-More: true|false)', listSchema(QUARANTINED_EMAIL_SCHEMA))
  quarantine(@Query() raw: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<QuarantinedEmailView[]> {
    const params = parseListQuery(ListQuarantineParams, raw);
    return listPage(() => this.bus.request('ingest.quarantine.list.v1', params), reply);
  }

  @Post('ingest/quarantine/:id/retry')
  @HttpCode(200)
  @AdminRoute()
  @LongestCall(QUARANTINE_RELEASE_TIMEOUT_MS)
  @ApiOperation({ summary: "Match a quarantined e-mail again once its merchant registered the deposit address (409 while none has); repeating answers the same release" })
  @ApiJsonResponse(200, 'The payment the e-mail became', QUARANTINE_RELEASE_SCHEMA)
  async retry(@Param('id') id: string, @Req() request: FastifyRequest): Promise<RetryQuarantinedEmailReply> {
    if (!EMAIL_ID_PATTERN.test(id)) throw new DomainError(ErrorCode.NotFound, 'Quarantined e-mail not found');
    const reply = await this.bus.request('ingest.quarantine.retry.v1', { email_id: id, released_by: adminTokenActor(request) }, { timeoutMs: QUARANTINE_RELEASE_TIMEOUT_MS });
    // A repeat is on the trail as `already released`: one admin released it. `changed` is the trail's, not the client's.
    await this.audit.record(request, { action: 'quarantine.released', target_id: reply.id, merchant_id: reply.merchant_id, livemode: true, detail: quarantineReleaseDetail(reply) });
    const { changed: _changed, ...released } = reply;
    return released;
  }

  @Get('payments')
  @AdminRoute()
  @ApiOperation({ summary: 'Payments across merchants, newest first; status=REQUIRES_MANUAL_REVIEW is the review queue' })
  @ApiQuery({ name: 'status', required: false, enum: [...PAYMENT_STATUSES] })
  @ApiQuery({ name: 'merchant_id', required: false })
  @ApiQuery({ name: 'livemode', required: false, schema: { type: 'boolean' } })
  @ApiPageLimitQuery(MAX_ADMIN_PAGE_LIMIT)
  @ApiQuery({ name: 'starting_after', required: false, description: 'Id of the last payment of the previous page' })
  @ApiJsonResponse(200, 'Payments (header X-Has-More: true|false)', listSchema(ADMIN_PAYMENT_SCHEMA))
  payments(@Query() raw: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<AdminPaymentView[]> {
    const query = parseListQuery(ListAllPaymentsQuery, raw);
    return listPage(() => this.bus.request('ledger.payments.list-all.v1', query), reply);
  }
}
