import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import type { KeyType } from '../identity/api-key';
import { SCOPES, type Scope } from '../identity/scopes';

const MAX_FRAME_ANCESTORS = 20;
/** An origin (scheme, host, optional port; a leading *. for subdomains), nothing that could break out of the CSP header. */
const FRAME_ANCESTOR = /^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

const EMAIL_RULES = { message: (field: string) => `${field} must be an e-mail address` };

/** Body of POST /v1/admin/merchants (PRODUCT-RULES §D4). */
export class CreateMerchantBody {
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name!: string;

  @IsEmail({}, { message: EMAIL_RULES.message('email') })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email!: string;

  /** The owner's dashboard password; generated (and returned once) when absent. */
  @IsOptional()
  @IsString({ message: 'password must be a string' })
  @Length(12, 256, { message: 'password must be 12 to 256 characters' })
  password?: string;

  /** Where payers send e-transfers for this merchant. */
  @IsOptional()
  @IsEmail({}, { message: EMAIL_RULES.message('etransfer_email') })
  @MaxLength(254, { message: 'etransfer_email must be at most 254 characters' })
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
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date-time' })
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
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name?: string;

  @ValidateIf((body: UpdateMerchantBody) => body.etransfer_email !== null && body.etransfer_email !== undefined)
  @IsEmail({}, { message: EMAIL_RULES.message('etransfer_email') })
  @MaxLength(254, { message: 'etransfer_email must be at most 254 characters' })
  etransfer_email?: string | null;

  /** Replaces the list of origins allowed to frame the embedded checkout ([] clears it). */
  @IsOptional()
  @IsArray({ message: 'frame_ancestors must be an array of origins' })
  @ArrayMaxSize(MAX_FRAME_ANCESTORS, { message: `frame_ancestors must list at most ${MAX_FRAME_ANCESTORS} origins` })
  @Matches(FRAME_ANCESTOR, { each: true, message: 'frame_ancestors must each be an origin such as https://shop.example.com or https://*.example.com' })
  frame_ancestors?: string[];
}

/** Body of POST /v1/admin/platform_admins: the password is generated (and returned once) when absent. */
export class CreatePlatformAdminBody {
  @IsEmail({}, { message: EMAIL_RULES.message('email') })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email!: string;

  @IsOptional()
  @IsString({ message: 'password must be a string' })
  @Length(12, 256, { message: 'password must be 12 to 256 characters' })
  password?: string;
}
