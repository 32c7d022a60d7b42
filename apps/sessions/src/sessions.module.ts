import { Module } from '@nestjs/common';
import { aggregateRuntime, RedisModule } from '@pp/platform';
import { PayerSessionHandler } from './checkout-page/payer-session.handler';
import { OpenCheckoutPreviewHandler } from './checkout-preview/open-checkout-preview.handler';
import { CheckoutSessionLifecycle } from './checkout-session/checkout-session.lifecycle';
import { CreateCheckoutSessionHandler } from './checkout-session/create-checkout-session.handler';
import { MemoDirectory } from './checkout-session/memo-directory';
import { ExpireTestSessionHandler } from './checkout-session/expire-test-session.handler';
import { GetCheckoutSessionHandler } from './checkout-session/get-checkout-session.handler';
import { ExpirySweepJob } from './expiry/expiry-sweep.job';
import { ExpirySweeper } from './expiry/expiry.sweeper';
import { OverdueSessionsSweep } from './expiry/overdue-sessions.sweep';
import { DecideRefundHandler } from './payments/decide-refund.handler';
import { RecordTransferHandler } from './payments/record-transfer.handler';
import { SimulatePaymentHandler } from './payments/simulate-payment.handler';
import { VerifyPaymentHandler } from './payments/verify-payment.handler';

@Module({
  imports: [RedisModule.forService({ servesWithout: true })], // each replica sweeps expiry on its own interval
  controllers: [CreateCheckoutSessionHandler, GetCheckoutSessionHandler, ExpireTestSessionHandler, PayerSessionHandler, SimulatePaymentHandler, VerifyPaymentHandler, RecordTransferHandler, DecideRefundHandler, OpenCheckoutPreviewHandler],
  providers: [
    ...aggregateRuntime('ledger.append-streams.v1'),
    CheckoutSessionLifecycle,
    MemoDirectory,
    OverdueSessionsSweep,
    ExpirySweepJob,
    ExpirySweeper,
  ],
})
export class SessionsModule {}
