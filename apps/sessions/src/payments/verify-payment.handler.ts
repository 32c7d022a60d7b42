import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DomainError, ErrorCode, type StreamAppend, transactionStreamId, type TransactionView, VerifyPaymentCommand } from '@pp/contracts';
import type { Clock } from '@pp/kernel';
import { Handles, retryOnConcurrencyConflict } from '@pp/platform';
import { CLOCK } from '../checkout-session/checkout-session.lifecycle';
import { CheckoutSessionRepository } from '../checkout-session/checkout-session.repository';
import { decide, fold, type Payment } from './payment.decider';
import { PaymentRepository } from './payment.repository';
import { transactionView } from './payment.view';
import { isOpen, sessionCompletion } from './session-completion';

/**
 * Manual verification by a merchant administrator (SPEC §3.2, DESIGN.md §3):
 * a REQUIRES_MANUAL_REVIEW payment becomes CONFIRMED (MANUAL_ADMIN) with
 * payment.confirmed, and completes its session in the same append when the
 * session is still PENDING and unexpired. An expired session stays EXPIRED
 * (the money arrived; the merchant decides what to do with the order), and a
 * session another payment already completed stays as it is. Verifying a
 * CONFIRMED payment again changes and emits nothing.
 */
@Controller()
export class VerifyPaymentHandler {
  constructor(
    private readonly sessions: CheckoutSessionRepository,
    private readonly payments: PaymentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Handles('payments.verify.v1')
  verify(@Payload() command: VerifyPaymentCommand): Promise<TransactionView> {
    return retryOnConcurrencyConflict(async () => {
      const { state: payment, version } = await this.payments.load(command.payment_id);
      if (!payment || payment.merchant_id !== command.merchant_id || payment.livemode !== command.livemode) {
        throw new DomainError(ErrorCode.NotFound, 'Payment not found');
      }
      const now = this.clock.now();
      const events = decide(payment, { kind: 'verify', verifiedBy: command.verified_by, now });
      if (events.length === 0) return transactionView(payment);
      const streams: StreamAppend[] = [{ stream_id: transactionStreamId(payment.id), expected_version: version, events }];
      if (payment.session_id) {
        const { state: session, version: sessionVersion } = await this.sessions.load(payment.session_id);
        if (session && isOpen(session, now)) streams.push(sessionCompletion(session, sessionVersion, now, payment.id));
      }
      const reply = await this.payments.append(streams, command, { causationId: `verify:${payment.id}` });
      return transactionView(fold(reply.streams[0].events, payment) as Payment);
    });
  }
}
