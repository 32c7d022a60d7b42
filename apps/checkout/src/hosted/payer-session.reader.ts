import { Injectable } from '@nestjs/common';
import { CHECKOUT_SESSION_ID_PATTERN, DomainError, ErrorCode, type MerchantProfileView, type PayerSessionView } from '@pp/contracts';
import { BusClient } from '@pp/platform';

/** A session and its merchant, as the payer pages show them. */
@Injectable()
export class PayerSessionReader {
  constructor(private readonly bus: BusClient) {}

  session(sessionId: string): Promise<PayerSessionView> {
    // Session ids are CUID2s: anything else cannot exist and is not worth a bus call.
    if (!CHECKOUT_SESSION_ID_PATTERN.test(sessionId)) return Promise.reject(new DomainError(ErrorCode.NotFound, 'Checkout session not found'));
    return this.bus.request('checkout-page.session.v1', { session_id: sessionId });
  }

  merchant(merchantId: string): Promise<MerchantProfileView> {
    return this.bus.request('identity.merchant-profile.v1', { merchant_id: merchantId });
  }

  async sessionWithMerchant(sessionId: string): Promise<{ session: PayerSessionView; merchant: MerchantProfileView }> {
    const session = await this.session(sessionId);
    return { session, merchant: await this.merchant(session.merchant_id) };
  }
}
