import { Module } from '@nestjs/common';
import { aggregateRuntime } from '@pp/platform';
import { PaymentRefunds } from './refund/payment-refunds';
import { RefundStageHandler } from './refund/refund-stage.handler';
import { RequestRefundHandler } from './refund/request-refund.handler';

@Module({
  controllers: [RequestRefundHandler, RefundStageHandler],
  providers: [...aggregateRuntime('ledger.append-refund-streams.v1'), PaymentRefunds],
})
export class RefundsModule {}
