import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { MerchantScope } from '../merchant-scope';
import { IdempotencyToken } from '../idempotency';
import { IsUtcTimestamp } from '../utc-timestamp';

export const API_KEY_TYPES = ['secret', 'restricted', 'publishable'] as const;
export type ApiKeyType = (typeof API_KEY_TYPES)[number];

/** A key as the dashboard lists it: never the key itself, only its prefix and last characters. */
export interface MerchantApiKeyView {
  id: string;
  merchant_id: string;
  type: ApiKeyType;
  livemode: boolean;
  redacted: string;
  scopes: string[];
  rate_limit_per_second: number | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  /** When the key last authenticated a request, to the minute; null if never. */
  last_used_at: string | null;
}

/** At creation: the only time the key itself is shown. */
export interface IssuedMerchantApiKeyView extends MerchantApiKeyView {
  key: string;
}

/** `identity.api-keys.list.v1`: the merchant's keys of one mode, newest first: every usable one and the newest 50 revoked or expired. */
export class ListApiKeysQuery extends MerchantScope {}

/** `identity.api-keys.create.v1`: a key the merchant creates on the dashboard's Developers page. */
export class CreateApiKeyCommand extends MerchantScope {
  @IsIn(API_KEY_TYPES, { message: `type must be one of ${API_KEY_TYPES.join(', ')}` })
  type!: ApiKeyType;

  /** Restricted keys only (checked by the gateway against its scopes). */
  @IsOptional()
  @IsArray({ message: 'scopes must be an array' })
  @ArrayMaxSize(20)
  @IsString({ each: true, message: 'scopes must be strings' })
  scopes?: string[];

  @IsOptional()
  @IsUtcTimestamp('expires_at')
  expires_at?: string;

  /**
   * The dashboard request's Idempotency-Key: the gateway records it with the key it issues, and a repeat issues none
   * (CONFLICT naming the key issued: the key itself is kept only as a hash, so it cannot be shown again).
   */
  @IsOptional()
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency?: IdempotencyToken;
}

/** `identity.api-keys.revoke.v1`. */
export class RevokeApiKeyCommand extends MerchantScope {
  @IsString()
  @Matches(/^key_[a-z0-9]{1,64}$/, { message: 'key_id must look like key_…' })
  key_id!: string;
}
