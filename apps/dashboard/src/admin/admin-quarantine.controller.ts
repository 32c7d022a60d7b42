import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  type DashboardPrincipal,
  EMAIL_ID_PATTERN,
  ListQuarantineParams,
  type ListPage,
  QUARANTINE_RELEASE_TIMEOUT_MS,
  type QuarantinedEmailView,
  quarantineReleaseDetail,
  type RetryQuarantinedEmailReply,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { Audited } from '../audit/audited.interceptor';
import { Permit } from '../auth/route-access';
import { Principal } from '../auth/signed-in';
import { notFound } from '../http/not-found';
import { parseInput } from '../http/parse-input';

/** What each answered release says on the trail (a repeat: `already released`); the reply's `changed` is the trail's, kept from the client. */
const releaseDetails = new WeakMap<RetryQuarantinedEmailReply, string>();

/** Transfer e-mails addressed to no known merchant (the ingest's quarantine), and their release once the address is registered. */
@Controller('api/admin/ingest/quarantine')
export class AdminQuarantineController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Permit('platform.operate')
  list(@Query() query: Record<string, unknown>): Promise<ListPage<QuarantinedEmailView>> {
    return this.bus.request('ingest.quarantine.list.v1', parseInput(ListQuarantineParams, query));
  }

  /** Matches the e-mail again; 409 while its recipient is still no merchant's deposit address. A repeat answers the same release. */
  @Post(':id/release')
  @HttpCode(200)
  @Permit('platform.operate')
  @Audited('quarantine.released', (released: RetryQuarantinedEmailReply) => ({
    target_id: released.id,
    merchant_id: released.merchant_id,
    livemode: true,
    detail: releaseDetails.get(released) ?? null,
  }))
  async release(@Param('id') id: string, @Principal() admin: DashboardPrincipal): Promise<RetryQuarantinedEmailReply> {
    if (!EMAIL_ID_PATTERN.test(id)) throw notFound('Quarantined e-mail');
    const reply = await this.bus.request('ingest.quarantine.retry.v1', { email_id: id, released_by: admin.id }, { timeoutMs: QUARANTINE_RELEASE_TIMEOUT_MS });
    const { changed: _changed, ...released } = reply;
    releaseDetails.set(released, quarantineReleaseDetail(reply));
    return released;
  }
}
