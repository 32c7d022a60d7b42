import { Injectable } from '@nestjs/common';
import type { DecideRefundReply, MerchantScope } from '@pp/contracts';
import { BusClient } from '@pp/platform';

/** The payment aggregate's side of a refund, decided by its owner (sessions) and appended here with the refund's stream. */
@Injectable()
export class PaymentRefunds {
  constructor(private readonly bus: BusClient) {}

  /** NOT_FOUND 'Payment not found' for a payment outside the scope; CONFLICT for one that is neither CONFIRMED nor REFUNDED. */
  decide(scope: MerchantScope, paymentId: string, refundId: string): Promise<DecideRefundReply> {
    return this.bus.request('payments.decide-refund.v1', { merchant_id: scope.merchant_id, livemode: scope.livemode, payment_id: paymentId, refund_id: refundId });
  }
}
