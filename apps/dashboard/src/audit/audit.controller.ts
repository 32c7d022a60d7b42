import { Controller, Get, Query } from '@nestjs/common';
import { OmitType } from '@nestjs/mapped-types';
import { type AuditEntryView, ListAuditEntriesQuery, type ListPage, type MerchantScope } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { Permit } from '../auth/route-access';
import { Scope } from '../auth/signed-in';
import { parseInput } from '../http/parse-input';
import { asMerchantSees } from './merchant-audit-view';

/** Query of GET /api/audit: the merchant is the signed-in user's. */
class MerchantAuditParams extends OmitType(ListAuditEntriesQuery, ['merchant_id'] as const) {}

const withoutMode = ({ mode: _mode, ...query }: Record<string, unknown>) => query;

/** The audit list: a merchant's own entries (both modes, operators shown as the platform) for its owners and administrators; every merchant's for platform admins. */
@Controller('api')
export class AuditController {
  constructor(private readonly bus: BusClient) {}

  @Get('audit')
  @Permit('audit.read')
  async merchantEntries(@Query() query: Record<string, unknown>, @Scope() scope: MerchantScope): Promise<ListPage<AuditEntryView>> {
    const page = await this.bus.request('identity.audit.list.v1', { ...parseInput(MerchantAuditParams, withoutMode(query)), merchant_id: scope.merchant_id });
    return { ...page, data: page.data.map(asMerchantSees) };
  }

  @Get('admin/audit')
  @Permit('platform.operate')
  allEntries(@Query() query: Record<string, unknown>): Promise<ListPage<AuditEntryView>> {
    return this.bus.request('identity.audit.list.v1', parseInput(ListAuditEntriesQuery, query));
  }
}
