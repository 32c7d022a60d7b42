import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode, merchantChangeDetail } from '@pp/contracts';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { CreationKey } from '../access/request-params';
import { AdminRoute } from '../access/route-access';
import { AnsweredWhenItsChangeEnds } from '../http/answer-deadline.decorators';
import type { CreationRequest } from '../idempotency/creation-request.repository';
import type { ApiKeyView, IssuedApiKeyView, MerchantView, MerchantWithKeysView, ProvisionedMerchantView } from '../identity/identity.views';
import { DASHBOARD_USER_NOT_FOUND, resetDashboardUserPassword, type ResetDashboardUserView } from '../identity/dashboard-user-password.service';
import { MerchantProvisioningService } from '../identity/merchant-provisioning.service';
import {
  createPlatformAdmin,
  listPlatformAdmins,
  PLATFORM_ADMIN_NOT_FOUND,
  type PlatformAdminListing,
  type PlatformAdminView,
  removePlatformAdmin,
  resetPlatformAdminPassword,
} from '../identity/platform-admin.service';
import { ApiJsonBody, ApiJsonResponse } from '../openapi/api-docs.decorators';
import { AdminAudit } from './admin-audit';
import { CreateApiKeyBody, CreateMerchantBody, CreatePlatformAdminBody, ResetPasswordBody, UpdateMerchantBody } from './admin.bodies';
import {
  API_KEY_SCHEMA,
  ISSUED_API_KEY_SCHEMA,
  MERCHANT_SCHEMA,
  MERCHANT_WITH_KEYS_SCHEMA,
  PLATFORM_ADMIN_LIST_SCHEMA,
  PLATFORM_ADMIN_LISTING_SCHEMA,
  PLATFORM_ADMIN_SCHEMA,
  PROVISIONED_MERCHANT_SCHEMA,
  RESET_DASHBOARD_USER_SCHEMA,
} from './admin.schemas';
import { apiKeyFact, dashboardUserPasswordResetFact, merchantCreatedFact, platformAdminCreatedFact, platformAdminPasswordResetFact, platformAdminRemovedFact } from './operator-audit-entry';

const MERCHANT_ID = /^mer_[a-z0-9]{1,64}$/;
const KEY_ID = /^key_[a-z0-9]{1,64}$/;
const USER_ID = /^usr_[a-z0-9]{1,64}$/;

/** Platform bootstrap and key management for the operator (PRODUCT-RULES §D4), behind Bearer $ADMIN_TOKEN. */
@ApiTags('admin')
@Controller('v1/admin')
export class AdminController {
  constructor(
    private readonly provisioning: MerchantProvisioningService,
    private readonly dataSource: DataSource,
    private readonly audit: AdminAudit,
  ) {}

  @Post('merchants')
  @AnsweredWhenItsChangeEnds()
  @AdminRoute()
  @ApiOperation({ summary: 'Create a merchant, its owner dashboard user and four default keys (shown once)' })
  @ApiJsonBody(CreateMerchantBody)
  @ApiJsonResponse(201, 'Merchant created', PROVISIONED_MERCHANT_SCHEMA)
  async createMerchant(@Body() body: CreateMerchantBody, @CreationKey() creation: CreationRequest, @Req() request: FastifyRequest): Promise<ProvisionedMerchantView> {
    const merchant = await this.provisioning.createMerchant(body, creation);
    await this.audit.record(request, merchantCreatedFact(merchant, body.etransfer_email));
    return merchant;
  }

  @Post('platform_admins')
  @AnsweredWhenItsChangeEnds()
  @AdminRoute()
  @ApiOperation({ summary: 'Create a platform admin for the dashboard console (generated password shown once)' })
  @ApiJsonBody(CreatePlatformAdminBody)
  @ApiJsonResponse(201, 'Platform admin created', PLATFORM_ADMIN_SCHEMA)
  async createPlatformAdmin(@Body() body: CreatePlatformAdminBody, @CreationKey() creation: CreationRequest, @Req() request: FastifyRequest): Promise<PlatformAdminView> {
    const admin = await createPlatformAdmin(this.dataSource, body, creation);
    await this.audit.record(request, platformAdminCreatedFact(admin));
    return admin;
  }

  @Get('platform_admins')
  @AdminRoute()
  @ApiOperation({ summary: "The dashboard console's platform admins, oldest first (removed ones left out)" })
  @ApiJsonResponse(200, 'Platform admins', PLATFORM_ADMIN_LIST_SCHEMA)
  listPlatformAdmins(): Promise<PlatformAdminListing[]> {
    return listPlatformAdmins(this.dataSource);
  }

  @Delete('platform_admins/:id')
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({ summary: 'Remove a platform admin: sign-in refuses it at once, its open dashboard sessions end within the principal recheck bound' })
  @ApiJsonResponse(200, 'The removed admin', PLATFORM_ADMIN_LISTING_SCHEMA)
  async removePlatformAdmin(@Param('id') id: string, @Req() request: FastifyRequest): Promise<PlatformAdminListing> {
    const removed = await removePlatformAdmin(this.dataSource, platformAdminId(id));
    await this.audit.record(request, platformAdminRemovedFact(removed));
    return removed;
  }

  @Post('platform_admins/:id/password')
  @AnsweredWhenItsChangeEnds()
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({ summary: "Set a platform admin's password without the old one (generated and shown once when not given); its open dashboard sessions end" })
  @ApiJsonBody(ResetPasswordBody)
  @ApiJsonResponse(200, 'The admin, with the generated password when there is one', PLATFORM_ADMIN_SCHEMA)
  async resetPlatformAdminPassword(@Param('id') id: string, @Body() body: ResetPasswordBody, @Req() request: FastifyRequest): Promise<PlatformAdminView> {
    const admin = await resetPlatformAdminPassword(this.dataSource, platformAdminId(id), body.password);
    await this.audit.record(request, platformAdminPasswordResetFact(admin));
    return admin;
  }

  @Post('merchants/:id/users/:user_id/password')
  @AnsweredWhenItsChangeEnds()
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({
    summary:
      "Set a merchant's dashboard user's password without the old one (an owner locked out: a forgotten password, or a generated one lost with its creation's answer); generated and shown once when not given; the user's open dashboard sessions end",
  })
  @ApiJsonBody(ResetPasswordBody)
  @ApiJsonResponse(200, 'The user, with the generated password when there is one', RESET_DASHBOARD_USER_SCHEMA)
  async resetDashboardUserPassword(
    @Param('id') id: string,
    @Param('user_id') userId: string,
    @Body() body: ResetPasswordBody,
    @Req() request: FastifyRequest,
  ): Promise<ResetDashboardUserView> {
    if (!USER_ID.test(userId)) throw new DomainError(ErrorCode.NotFound, DASHBOARD_USER_NOT_FOUND);
    const user = await resetDashboardUserPassword(this.dataSource, merchantId(id), userId, body.password);
    await this.audit.record(request, dashboardUserPasswordResetFact(user));
    return user;
  }

  @Get('merchants/:id')
  @AdminRoute()
  @ApiOperation({ summary: 'A merchant with its keys (redacted), newest first: every usable key and, of each mode, the newest 50 revoked or expired; and its dashboard users, oldest first' })
  @ApiJsonResponse(200, 'The merchant', MERCHANT_WITH_KEYS_SCHEMA)
  getMerchant(@Param('id') id: string): Promise<MerchantWithKeysView> {
    return this.provisioning.getMerchant(merchantId(id));
  }

  @Patch('merchants/:id')
  @AdminRoute()
  @ApiOperation({ summary: "Change a merchant's name, e-transfer deposit address or the origins allowed to frame its embedded checkout" })
  @ApiJsonBody(UpdateMerchantBody)
  @ApiJsonResponse(200, 'The updated merchant', MERCHANT_SCHEMA)
  async updateMerchant(@Param('id') id: string, @Body() body: UpdateMerchantBody, @Req() request: FastifyRequest): Promise<MerchantView> {
    const { before, after } = await this.provisioning.updateMerchant(merchantId(id), { name: body.name, etransfer_email: body.etransfer_email, frame_ancestors: body.frame_ancestors });
    await this.audit.record(request, { action: 'merchant.updated', target_id: after.id, merchant_id: after.id, livemode: null, detail: merchantChangeDetail(before, after) });
    return after;
  }

  @Post('merchants/:id/keys')
  @AnsweredWhenItsChangeEnds()
  @AdminRoute()
  @ApiOperation({ summary: 'Issue a key: secret (all scopes), restricted (pp_rk_, live only, chosen scopes) or publishable' })
  @ApiJsonBody(CreateApiKeyBody)
  @ApiJsonResponse(201, 'Key issued; the key itself is shown only here', ISSUED_API_KEY_SCHEMA)
  async createKey(
    @Param('id') id: string,
    @Body() body: CreateApiKeyBody,
    @CreationKey() creation: CreationRequest,
    @Req() request: FastifyRequest,
  ): Promise<IssuedApiKeyView> {
    const expiresAt = body.expires_at === undefined ? undefined : new Date(body.expires_at);
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: expires_at must be in the future');
    }
    const issued = await this.provisioning.issueKey(merchantId(id), { ...body, expires_at: expiresAt }, creation);
    await this.audit.record(request, apiKeyFact('api_key.created', issued));
    return issued;
  }

  @Delete('keys/:key_id')
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({ summary: 'Revoke a key at once; revoking again is harmless' })
  @ApiJsonResponse(200, 'The revoked key', API_KEY_SCHEMA)
  async revokeKey(@Param('key_id') keyId: string, @Req() request: FastifyRequest): Promise<ApiKeyView> {
    if (!KEY_ID.test(keyId)) throw new DomainError(ErrorCode.NotFound, 'API key not found');
    const revoked = await this.provisioning.revokeKey(keyId);
    await this.audit.record(request, apiKeyFact('api_key.revoked', revoked));
    return revoked;
  }
}

/** An id that cannot exist is simply not found (no database round trip). */
function merchantId(id: string): string {
  if (!MERCHANT_ID.test(id)) throw new DomainError(ErrorCode.NotFound, 'Merchant not found');
  return id;
}

function platformAdminId(id: string): string {
  if (!USER_ID.test(id)) throw new DomainError(ErrorCode.NotFound, PLATFORM_ADMIN_NOT_FOUND);
  return id;
}
