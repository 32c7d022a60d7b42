import { Module } from '@nestjs/common';
import { AGGREGATE_RUNTIME } from '@pp/platform';
import { PaymentRefunds } from './refund/payment-refunds';
import { RefundStageHandler } from './refund/refund-stage.handler';
import { RequestRefundHandler } from './refund/request-refund.handler';

@Module({
  controllers: [RequestRefundHandler, RefundStageHandler],
  providers: [...AGGREGATE_RUNTIME, PaymentRefunds],
})
export class RefundsModule {}
