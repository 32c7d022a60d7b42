import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsString, MaxLength } from 'class-validator';

/**
 * `identity.merchant-by-deposit-address.v1`: which merchant registered one of
 * these e-Transfer deposit addresses (merchants.etransfer_email). Addresses
 * are compared case-insensitively and exactly; the first one (in the order
 * given) that belongs to a merchant wins, so callers list the most
 * trustworthy recipient first.
 */
export class MerchantByDepositAddressQuery {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  addresses!: string[];
}

export interface MerchantByDepositAddressReply {
  merchant_id: string;
  /** The address that matched, lowercased. */
  address: string;
}
