import { Module } from '@nestjs/common';
import { systemClock } from '@pp/kernel';
import { RedisModule } from '@pp/platform';
import { PayerSessionHandler } from './checkout-page/payer-session.handler';
import { CheckoutSessionLifecycle, CLOCK } from './checkout-session/checkout-session.lifecycle';
import { CheckoutSessionRepository } from './checkout-session/checkout-session.repository';
import { CompleteCheckoutSessionHandler } from './checkout-session/complete-checkout-session.handler';
import { CreateCheckoutSessionHandler } from './checkout-session/create-checkout-session.handler';
import { GetCheckoutSessionHandler } from './checkout-session/get-checkout-session.handler';
import { ExpireSessionJob } from './expiry/expire-session.job';
import { ExpirySweeper } from './expiry/expiry-sweeper';
import { SessionExpiryScheduler } from './expiry/session-expiry.scheduler';
import { DecideRefundHandler } from './payments/decide-refund.handler';
import { PaymentRepository } from './payments/payment.repository';
import { RecordTransferHandler } from './payments/record-transfer.handler';
import { SimulatePaymentHandler } from './payments/simulate-payment.handler';
import { VerifyPaymentHandler } from './payments/verify-payment.handler';

@Module({
  imports: [RedisModule.forService()],
  controllers: [CreateCheckoutSessionHandler, GetCheckoutSessionHandler, CompleteCheckoutSessionHandler, PayerSessionHandler, SimulatePaymentHandler, VerifyPaymentHandler, RecordTransferHandler, DecideRefundHandler],
  providers: [
    { provide: CLOCK, useValue: systemClock },
    CheckoutSessionRepository,
    PaymentRepository,
    CheckoutSessionLifecycle,
    SessionExpiryScheduler,
    ExpireSessionJob,
    ExpirySweeper,
  ],
})
export class SessionsModule {}
