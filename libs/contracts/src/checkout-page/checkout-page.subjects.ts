import { IsString, Length, Matches } from 'class-validator';
import { MerchantScope } from '../merchant-scope';
import type { MerchantProfileView, PayerSessionView } from './checkout-page.views';

export class PayerSessionQuery {
  @IsString()
  @Matches(/^[a-z0-9]{1,64}$/, { message: 'session_id must be a session id' })
  session_id!: string;
}

/** The merchant and mode are the publishable key's, established by the gateway. */
export class ResolveClientSecretQuery extends MerchantScope {
  @IsString()
  @Length(1, 200)
  client_secret!: string;
}

export class MerchantProfileQuery {
  @IsString()
  @Length(1, 64)
  merchant_id!: string;
}

/** Payer-facing queries of the hosted and embedded checkout. */
export interface CheckoutPageSubjects {
  /** Served by sessions. Public by session id (the hosted page URL). NOT_FOUND 'Checkout session not found'. */
  'checkout-page.session.v1': { request: PayerSessionQuery; reply: PayerSessionView };
  /**
   * Served by sessions. The session a client secret opens, for the merchant and
   * mode of a publishable key. NOT_FOUND for a wrong secret, another
   * merchant's session, or a key of the other mode (modes are kept apart as
   * merchants are).
   */
  'checkout-page.resolve-client-secret.v1': { request: ResolveClientSecretQuery; reply: PayerSessionView };
  /** Served by the gateway (which owns merchants). NOT_FOUND 'Merchant not found'. */
  'identity.merchant-profile.v1': { request: MerchantProfileQuery; reply: MerchantProfileView };
}
