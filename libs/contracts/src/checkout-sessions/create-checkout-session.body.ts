import { Equals, IsInt, IsObject, IsOptional, IsString, Matches, MaxLength, Min, Max, MinLength } from 'class-validator';
import { HTTP_URL_PATTERN } from '../http-url';
import { PlainText, Trimmed } from '../plain-text';
import { MetadataLimit } from './checkout-metadata.policy';

export const MAX_AMOUNT_CENTS = 99_999_999_99;

/**
 * Body of POST /v1/checkout/sessions (PRODUCT-RULES §4.1), validated at the gateway's
 * edge only: the sessions service trusts its shape, as every internal payload
 * typed by contracts (docs/PERFORMANCE.md). Rules that depend on the mode (http
 * URLs allowed only for localhost in test mode) are the service's. Metadata
 * limits: checkout-metadata.policy.ts.
 */
export class CreateCheckoutSessionBody {
  @IsInt({ message: 'amount must be a positive integer number of cents' })
  @Min(1, { message: 'amount must be a positive integer number of cents' })
  @Max(MAX_AMOUNT_CENTS, { message: `amount must be at most ${MAX_AMOUNT_CENTS} cents` })
  amount!: number;

  @Equals('cad', { message: "currency must be exactly 'cad'" })
  currency!: 'cad';

  @IsString({ message: 'reference must be a string' })
  @Trimmed()
  @MinLength(1, { message: 'reference must not be empty' })
  @MaxLength(255, { message: 'reference must be at most 255 characters' })
  @PlainText('reference')
  reference!: string;

  @IsString({ message: 'success_url must be a fully qualified URL' })
  @MaxLength(2048, { message: 'success_url must be at most 2048 characters' })
  @Matches(HTTP_URL_PATTERN, { message: 'success_url must be a fully qualified URL' })
  success_url!: string;

  @IsString({ message: 'cancel_url must be a fully qualified URL' })
  @MaxLength(2048, { message: 'cancel_url must be at most 2048 characters' })
  @Matches(HTTP_URL_PATTERN, { message: 'cancel_url must be a fully qualified URL' })
  cancel_url!: string;

  @IsOptional()
  @IsObject({ message: 'metadata must be an object of key-value pairs' })
  @MetadataLimit('keyCount')
  @MetadataLimit('keyLength')
  @MetadataLimit('valueLength')
  @MetadataLimit('totalSize')
  @MetadataLimit('numbers')
  metadata?: Record<string, unknown> | null;
}
