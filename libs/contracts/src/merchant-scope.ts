import { IsBoolean, IsString, Length } from 'class-validator';

/**
 * Who a command acts for: the merchant and the mode of the key that made the
 * request. Every merchant-facing command and query carries it, and every
 * service filters by both (a resource of another merchant or mode is "not found").
 */
export class MerchantScope {
  @IsString()
  @Length(1, 64)
  merchant_id!: string;

  @IsBoolean()
  livemode!: boolean;
}

/** How long an Idempotency-Key answers its first request again (PRODUCT-RULES §8: 24 hours); after that it is a new key. */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;

/** The Idempotency-Key of the HTTP request and a fingerprint of its body, recorded with the append (PRODUCT-RULES §D3). */
export class IdempotencyToken {
  @IsString()
  @Length(1, 255)
  key!: string;

  @IsString()
  @Length(1, 128)
  fingerprint!: string;
}
