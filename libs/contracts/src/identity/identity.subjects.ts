import type { MerchantByDepositAddressQuery, MerchantByDepositAddressReply } from './merchant-by-deposit-address.query';

/** Served by the gateway, which owns merchants. */
export interface IdentitySubjects {
  /** NOT_FOUND 'No merchant has this deposit address' when none of the addresses is registered. */
  'identity.merchant-by-deposit-address.v1': { request: MerchantByDepositAddressQuery; reply: MerchantByDepositAddressReply };
}
