import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsString, MaxLength } from 'class-validator';

/** Most addresses one request may ask about: the recipients of a few dozen notices at once. */
export const DEPOSIT_ADDRESSES_PER_QUERY = 500;

/**
 * `identity.merchants-by-deposit-address.v1`: which merchants registered
 * these e-Transfer deposit addresses (merchants.etransfer_email). The ingest
 * asks once for every notice it is matching at the moment, so the reply lists
 * every address that belongs to a merchant and each notice picks its own
 * (PRODUCT-RULES §3.1: the signed recipient first). Addresses are compared
 * case-insensitively and exactly; one address names at most one merchant.
 */
export class MerchantsByDepositAddressQuery {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(DEPOSIT_ADDRESSES_PER_QUERY)
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  addresses!: string[];
}

export interface DepositAddressOwner {
  /** The address asked about, lowercased. */
  address: string;
  merchant_id: string;
}

export interface MerchantsByDepositAddressReply {
  /** One entry per registered address asked about, in no particular order; empty when none is. */
  owners: DepositAddressOwner[];
}
