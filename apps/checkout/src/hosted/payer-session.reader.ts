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

/**
 * For the page routes' switches on a session's status, which answer through @Res(): a status this app does not
 * know yet (a newer sessions service during a rolling deploy) must become an answer, or the request would hang.
 * Typed `never`, so a status added to PayerSessionView fails to compile until the switches handle it.
 */
export function unexpectedStatus(status: never): DomainError {
  return new DomainError(ErrorCode.ServiceUnavailable, `Unexpected checkout session status ${JSON.stringify(status)}`);
}
