import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type CheckoutSessionView, GetCheckoutSessionQuery } from '@pp/contracts';
import { BusClient, Handles } from '@pp/platform';

/** Reads the ledger's checkout_sessions read model, written in the append's transaction (read-your-writes). */
@Controller()
export class GetCheckoutSessionHandler {
  constructor(private readonly bus: BusClient) {}

  @Handles('sessions.get.v1')
  get(@Payload() query: GetCheckoutSessionQuery): Promise<CheckoutSessionView> {
    return this.bus.request('ledger.checkout-sessions.get.v1', {
      merchant_id: query.merchant_id,
      livemode: query.livemode,
      session_id: query.session_id,
    });
  }
}
