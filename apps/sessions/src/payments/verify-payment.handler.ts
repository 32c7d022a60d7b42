import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DomainError, ErrorCode, foldStored, type PaymentView, VerifyPaymentCommand } from '@pp/contracts';
import { CommandRunner, Handles } from '@pp/platform';
import { checkoutSessionAggregate, isOpen } from '../checkout-session/checkout-session.decider';
import { decide, type Payment, paymentAggregate } from './payment.decider';
import { transactionView } from './payment.view';
import { sessionPart } from './session-completion';

/**
 * Manual verification by a merchant administrator (PRODUCT-RULES §3.2, PRODUCT-RULES §D3):
 * a REQUIRES_MANUAL_REVIEW payment becomes CONFIRMED (MANUAL_ADMIN) with
 * payment.confirmed, and completes its session in the same append when the
 * session is still PENDING and unexpired. An expired session stays EXPIRED
 * (the money arrived; the merchant decides what to do with the order), and a
 * session another payment already completed stays as it is. Verifying a
 * CONFIRMED payment again changes and emits nothing.
 */
@Controller()
export class VerifyPaymentHandler {
  constructor(private readonly runner: CommandRunner) {}

  @Handles('payments.verify.v1')
  verify(@Payload() command: VerifyPaymentCommand): Promise<PaymentView> {
    return this.runner.run(async (round) => {
      const loaded = await round.load(paymentAggregate, command.payment_id);
      const payment = loaded.state;
      if (!payment || payment.merchant_id !== command.merchant_id || payment.livemode !== command.livemode) {
        throw new DomainError(ErrorCode.NotFound, 'Payment not found');
      }
      const now = round.now();
      const events = decide(payment, { kind: 'verify', verifiedBy: command.verified_by, now });
      if (events.length === 0) return { append: false, answer: transactionView(payment) };
      const loadedSession = payment.session_id ? await round.load(checkoutSessionAggregate, payment.session_id) : undefined;
      const session = loadedSession?.state;
      // A verified payment completes its session only while it is open; one left alone must still be as loaded
      // (a remembered copy may miss a preview's extended deadline).
      const onSession = sessionPart(session ?? null, loadedSession?.version ?? 0, now, payment.id, !!session && isOpen(session, now));
      return {
        append: [loaded.append(events), ...onSession.append],
        scope: command,
        options: { causationId: `verify:${payment.id}`, unchanged: onSession.unchanged, commitBefore: onSession.commitBefore },
        answer: (reply) => transactionView(foldStored(paymentAggregate, reply.streams[0].events, payment) as Payment),
      };
    });
  }
}
