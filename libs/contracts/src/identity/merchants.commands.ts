import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { IsEmailAddress } from '../email-address';
import { IdempotencyToken } from '../idempotency';
import { PlainText } from '../plain-text';
import { IsDepositAddress, IsFrameAncestors, IsMerchantName } from './merchant-rules';

const MERCHANT_ID = /^mer_[a-z0-9]{1,64}$/;

/** A merchant as platform admins see it. */
export interface MerchantAdminView {
  id: string;
  name: string;
  email: string;
  etransfer_email: string | null;
  frame_ancestors: string[];
  created_at: string;
  updated_at: string;
}

/** `identity.merchants.list.v1`: newest first; `search` matches name, e-mail or deposit address (case-insensitive). */
export class ListMerchantsQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @PlainText('search')
  search?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @Matches(MERCHANT_ID)
  starting_after?: string;
}

/** `identity.merchants.create.v1`: the rules of POST /v1/admin/merchants (the owner's password is generated). */
export class CreateMerchantCommand {
  @IsMerchantName()
  name!: string;

  @IsEmailAddress('email')
  email!: string;

  @IsOptional()
  @IsDepositAddress('etransfer_email')
  etransfer_email?: string;

  /**
   * The dashboard request's Idempotency-Key: the gateway records it with the merchant it creates, and a repeat creates
   * none (CONFLICT naming the merchant: its keys and owner password are not kept, so they cannot be shown again).
   */
  @IsOptional()
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency?: IdempotencyToken;
}

/** `identity.merchants.update.v1`: the name, the deposit address (null clears it) and the origins allowed to frame the embedded checkout; what is left out stays. */
export class UpdateMerchantCommand {
  @Matches(MERCHANT_ID, { message: 'merchant_id must look like mer_…' })
  merchant_id!: string;

  @IsOptional()
  @IsMerchantName()
  name?: string;

  @ValidateIf((command: UpdateMerchantCommand) => command.etransfer_email !== null && command.etransfer_email !== undefined)
  @IsDepositAddress('etransfer_email')
  etransfer_email?: string | null;

  @IsOptional()
  @IsFrameAncestors()
  frame_ancestors?: string[];
}

/**
 * The answer to `identity.merchants.update.v1`: the merchant as the update left it, with `before`, the merchant
 * as it was, so that the caller's audit entry names what changed (the deposit address replaced above all).
 * `before` is the trail's, not the client's: HTTP clients get the merchant without it.
 */
export type MerchantUpdateReply = MerchantAdminView & { before: MerchantAdminView };
