import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@pp/contracts';
import { DataSource } from 'typeorm';
import { AdminRoute } from '../access/route-access';
import type { ApiKeyView, IssuedApiKeyView, MerchantView, ProvisionedMerchantView } from '../identity/identity.views';
import { MerchantProvisioningService } from '../identity/merchant-provisioning.service';
import { createPlatformAdmin, type PlatformAdminView } from '../identity/platform-admin.service';
import { ApiJsonBody, ApiJsonResponse } from '../openapi/api-docs.decorators';
import { CreateApiKeyBody, CreateMerchantBody, CreatePlatformAdminBody, UpdateMerchantBody } from './admin.bodies';
import {
  API_KEY_SCHEMA,
  ISSUED_API_KEY_SCHEMA,
  MERCHANT_SCHEMA,
  MERCHANT_WITH_KEYS_SCHEMA,
  PLATFORM_ADMIN_SCHEMA,
  PROVISIONED_MERCHANT_SCHEMA,
} from './admin.schemas';

const MERCHANT_ID = /^mer_[a-z0-9]{1,64}$/;
const KEY_ID = /^key_[a-z0-9]{1,64}$/;

/** Platform bootstrap and key management for the operator (PRODUCT-RULES §D4), behind Bearer $ADMIN_TOKEN. */
@ApiTags('admin')
@Controller('v1/admin')
export class AdminController {
  constructor(
    private readonly provisioning: MerchantProvisioningService,
    private readonly dataSource: DataSource,
  ) {}

  @Post('merchants')
  @AdminRoute()
  @ApiOperation({ summary: 'Create a merchant, its owner dashboard user and four default keys (shown once)' })
  @ApiJsonBody(CreateMerchantBody)
  @ApiJsonResponse(201, 'Merchant created', PROVISIONED_MERCHANT_SCHEMA)
  createMerchant(@Body() body: CreateMerchantBody): Promise<ProvisionedMerchantView> {
    return this.provisioning.createMerchant(body);
  }

  @Post('platform_admins')
  @AdminRoute()
  @ApiOperation({ summary: 'Create a platform admin for the dashboard console (generated password shown once)' })
  @ApiJsonBody(CreatePlatformAdminBody)
  @ApiJsonResponse(201, 'Platform admin created', PLATFORM_ADMIN_SCHEMA)
  createPlatformAdmin(@Body() body: CreatePlatformAdminBody): Promise<PlatformAdminView> {
    return createPlatformAdmin(this.dataSource, body);
  }

  @Get('merchants/:id')
  @AdminRoute()
  @ApiOperation({ summary: 'A merchant with its keys (redacted)' })
  @ApiJsonResponse(200, 'The merchant', MERCHANT_WITH_KEYS_SCHEMA)
  getMerchant(@Param('id') id: string): Promise<MerchantView & { keys: ApiKeyView[] }> {
    return this.provisioning.getMerchant(merchantId(id));
  }

  @Patch('merchants/:id')
  @AdminRoute()
  @ApiOperation({ summary: "Change a merchant's name, e-transfer deposit address or the origins allowed to frame its embedded checkout" })
  @ApiJsonBody(UpdateMerchantBody)
  @ApiJsonResponse(200, 'The updated merchant', MERCHANT_SCHEMA)
  updateMerchant(@Param('id') id: string, @Body() body: UpdateMerchantBody): Promise<MerchantView> {
    return this.provisioning.updateMerchant(merchantId(id), { name: body.name, etransfer_email: body.etransfer_email, frame_ancestors: body.frame_ancestors });
  }

  @Post('merchants/:id/keys')
  @AdminRoute()
  @ApiOperation({ summary: 'Issue a key: secret (all scopes), restricted (pp_rk_, live only, chosen scopes) or publishable' })
  @ApiJsonBody(CreateApiKeyBody)
  @ApiJsonResponse(201, 'Key issued; the key itself is shown only here', ISSUED_API_KEY_SCHEMA)
  createKey(@Param('id') id: string, @Body() body: CreateApiKeyBody): Promise<IssuedApiKeyView> {
    const expiresAt = body.expires_at === undefined ? undefined : new Date(body.expires_at);
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: expires_at must be in the future');
    }
    return this.provisioning.issueKey(merchantId(id), { ...body, expires_at: expiresAt });
  }

  @Delete('keys/:key_id')
  @HttpCode(200)
  @AdminRoute()
  @ApiOperation({ summary: 'Revoke a key at once; revoking again is harmless' })
  @ApiJsonResponse(200, 'The revoked key', API_KEY_SCHEMA)
  revokeKey(@Param('key_id') keyId: string): Promise<ApiKeyView> {
    if (!KEY_ID.test(keyId)) throw new DomainError(ErrorCode.NotFound, 'API key not found');
    return this.provisioning.revokeKey(keyId);
  }
}

/** An id that cannot exist is simply not found (no database round trip). */
function merchantId(id: string): string {
  if (!MERCHANT_ID.test(id)) throw new DomainError(ErrorCode.NotFound, 'Merchant not found');
  return id;
}
