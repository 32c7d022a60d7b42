import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DecideRefundCommand, type DecideRefundReply, DomainError, ErrorCode, transactionStreamId } from '@pp/contracts';
import type { Clock } from '@pp/kernel';
import { AggregateStore, CLOCK, Handles } from '@pp/platform';

import { decide, paymentAggregate } from './payment.decider';
import { transactionView } from './payment.view';

/**
 * The payment's side of a refund, decided here (the payment aggregate's
 * owner) and appended by the refunds service together with its refund stream
 * in one atomic append: CONFIRMED → REFUNDED with transaction.refunded and
 * payment.refunded, at the version loaded now. A REFUNDED payment decides
 * nothing (append null); any other status is refused.
 */
@Controller()
export class DecideRefundHandler {
  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Handles('payments.decide-refund.v1')
  async decideRefund(@Payload() command: DecideRefundCommand): Promise<DecideRefundReply> {
    const { state: payment, version } = await this.aggregates.load(paymentAggregate, command.payment_id);
    if (!payment || payment.merchant_id !== command.merchant_id || payment.livemode !== command.livemode) {
      throw new DomainError(ErrorCode.NotFound, 'Payment not found');
    }
    const events = decide(payment, { kind: 'refund', refundId: command.refund_id, now: this.clock.now() });
    return {
      payment: transactionView(payment),
      append: events.length === 0 ? null : { stream_id: transactionStreamId(payment.id), expected_version: version, events },
    };
  }
}
