import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  type IdempotencyToken,
  ListMerchantsQuery,
  type MerchantAdminView,
  merchantChangeDetail,
  merchantCreatedDetail,
  type ProvisionedMerchantReply,
  SHOWN_ONCE_CREATION_TIMEOUT_MS,
  UpdateMerchantCommand,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { Audited } from '../audit/audited.interceptor';
import { Permit } from '../auth/route-access';
import { Idempotency } from '../http/idempotency-key';
import { notFound } from '../http/not-found';
import { parseInput } from '../http/parse-input';
import { CreateMerchantBody } from './admin-merchants.bodies';

const MERCHANT_ID = /^mer_[a-z0-9]{1,64}$/;

/** What each answered update changed, for its audit entry: the reply's `before` is the trail's, kept from the client. */
const changes = new WeakMap<MerchantAdminView, string>();

/** The platform admins' merchants: list and search, create (keys and owner password shown once), deposit address and frame ancestors. */
@Controller('api/admin/merchants')
export class AdminMerchantsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Permit('platform.operate')
  list(@Query() query: Record<string, unknown>): Promise<{ data: MerchantAdminView[]; has_more: boolean }> {
    const limit = typeof query.limit === 'string' && /^\d+$/.test(query.limit) ? Number(query.limit) : query.limit;
    return this.bus.request('identity.merchants.list.v1', parseInput(ListMerchantsQuery, { ...query, ...(limit === undefined ? {} : { limit }) }));
  }

  /**
   * The entry names the deposit address given, as the admin API's does: the body passed CreateMerchantBody to get here.
   * A repeat of the Idempotency-Key creates nothing: the gateway answers 409 naming the merchant it created.
   */
  @Post()
  @HttpCode(201)
  @Permit('platform.operate')
  @Audited('merchant.created', (merchant: ProvisionedMerchantReply, request) => ({
    target_id: merchant.merchant_id,
    merchant_id: merchant.merchant_id,
    livemode: null,
    detail: merchantCreatedDetail(merchant.dashboard_user.email, (request.body as Partial<CreateMerchantBody>).etransfer_email),
  }))
  create(@Body() body: unknown, @Idempotency() idempotency: IdempotencyToken): Promise<ProvisionedMerchantReply> {
    return this.bus.request('identity.merchants.create.v1', { ...parseInput(CreateMerchantBody, body), idempotency }, { timeoutMs: SHOWN_ONCE_CREATION_TIMEOUT_MS });
  }

  /** The deposit address decides which merchant a live transfer confirms for: every change is on the trail, old and new value. */
  @Patch(':id')
  @Permit('platform.operate')
  @Audited('merchant.updated', (merchant: MerchantAdminView) => ({ target_id: merchant.id, merchant_id: merchant.id, livemode: null, detail: changes.get(merchant) ?? null }))
  async update(@Param('id') id: string, @Body() body: unknown): Promise<MerchantAdminView> {
    if (!MERCHANT_ID.test(id)) throw notFound('Merchant');
    const { before, ...after } = await this.bus.request('identity.merchants.update.v1', parseInput(UpdateMerchantCommand, body, { merchant_id: id }));
    changes.set(after, merchantChangeDetail(before, after));
    return after;
  }
}
