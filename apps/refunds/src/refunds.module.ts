import { Module } from '@nestjs/common';
import { systemClock } from '@pp/kernel';
import { RefundRepository } from './refund/refund.repository';
import { RefundStageHandler } from './refund/refund-stage.handler';
import { RequestRefundHandler } from './refund/request-refund.handler';
import { CLOCK } from './refunds.tokens';

@Module({
  controllers: [RequestRefundHandler, RefundStageHandler],
  providers: [{ provide: CLOCK, useValue: systemClock }, RefundRepository],
})
export class RefundsModule {}
