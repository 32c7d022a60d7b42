import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateIf } from 'class-validator';
import { IsDepositAddress, IsEmailAddress, IsFrameAncestors, IsMerchantName, IsUtcTimestamp } from '@pp/contracts';
import type { KeyType } from '../identity/api-key';
import { SCOPES, type Scope } from '../identity/scopes';

/** Body of POST /v1/admin/merchants (PRODUCT-RULES §D4). */
export class CreateMerchantBody {
  @IsMerchantName()
  name!: string;

  @IsEmailAddress('email')
  email!: string;

  /** The owner's dashboard password; generated (and returned once) when absent. */
  @IsOptional()
  @IsString({ message: 'password must be a string' })
  @Length(12, 256, { message: 'password must be 12 to 256 characters' })
  password?: string;

  /** Where payers send e-transfers for this merchant. */
  @IsOptional()
  @IsDepositAddress('etransfer_email')
  etransfer_email?: string;
}

/** Body of POST /v1/admin/merchants/:id/keys. */
export class CreateApiKeyBody {
  @IsIn(['secret', 'restricted', 'publishable'], { message: 'type must be one of secret, restricted, publishable' })
  type!: KeyType;

  @IsBoolean({ message: 'livemode must be a boolean' })
  livemode!: boolean;

  /** Restricted keys only: the scopes the key carries. */
  @IsOptional()
  @IsArray({ message: 'scopes must be an array' })
  @ArrayMaxSize(SCOPES.length, { message: `scopes must list at most ${SCOPES.length} scopes` })
  @IsIn(SCOPES, { each: true, message: `scopes must each be one of ${SCOPES.join(', ')}` })
  scopes?: Scope[];

  @IsOptional()
  @IsUtcTimestamp('expires_at')
  expires_at?: string;

  /** Requests per second for this key; the mode's default when absent. */
  @IsOptional()
  @IsInt({ message: 'rate_limit_per_second must be a positive integer' })
  @Min(1, { message: 'rate_limit_per_second must be a positive integer' })
  @Max(100_000, { message: 'rate_limit_per_second must be at most 100000' })
  rate_limit_per_second?: number;
}

/** Body of PATCH /v1/admin/merchants/:id: fields left out stay as they are; etransfer_email null clears it. */
export class UpdateMerchantBody {
  @IsOptional()
  @IsMerchantName()
  name?: string;

  @ValidateIf((body: UpdateMerchantBody) => body.etransfer_email !== null && body.etransfer_email !== undefined)
  @IsDepositAddress('etransfer_email')
  etransfer_email?: string | null;

  /** Replaces the list of origins allowed to frame the embedded checkout ([] clears it). */
  @IsOptional()
  @IsFrameAncestors()
  frame_ancestors?: string[];
}

/**
 * Body of POST /v1/admin/platform_admins/:id/password and /v1/admin/merchants/:id/users/:user_id/password: the new
 * password, generated (and returned once) when absent.
 */
export class ResetPasswordBody {
  @IsOptional()
  @IsString({ message: 'password must be a string' })
  @Length(12, 256, { message: 'password must be 12 to 256 characters' })
  password?: string;
}

/** Body of POST /v1/admin/platform_admins: the password is generated (and returned once) when absent. */
export class CreatePlatformAdminBody {
  @IsEmailAddress('email')
  email!: string;

  @IsOptional()
  @IsString({ message: 'password must be a string' })
  @Length(12, 256, { message: 'password must be 12 to 256 characters' })
  password?: string;
}
