import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type AppendStreamsReply,
  checkoutSessionStreamId,
  DomainError,
  ErrorCode,
  type MerchantScope,
  SimulatePaymentCommand,
  type SimulatePaymentReply,
  type SimulatedOutcome,
  type TransactionRecordedV1,
  transactionStreamId,
} from '@pp/contracts';
import { type Clock, newId } from '@pp/kernel';
import { BusClient, Handles, retryOnConcurrencyConflict } from '@pp/platform';
import { type CheckoutSession, fold as foldSession } from '../checkout-session/checkout-session.decider';
import { CLOCK } from '../checkout-session/checkout-session.lifecycle';
import { CheckoutSessionRepository } from '../checkout-session/checkout-session.repository';
import { sessionView } from '../checkout-session/checkout-session.view';
import { decide, fold, type Payment } from './payment.decider';
import { PaymentRepository } from './payment.repository';
import { transactionView } from './payment.view';
import { isOpen, sessionCompletion } from './session-completion';

const STATUS_OF: Record<SimulatedOutcome, TransactionRecordedV1['status']> = {
  confirmed: 'CONFIRMED',
  failed: 'FAILED',
  requires_manual_review: 'REQUIRES_MANUAL_REVIEW',
};

export const SIMULATED_SENDER = { name: 'Test Payer', email: 'test.payer@example.com' } as const;

const SESSION_NOT_FOUND = 'Checkout session not found';
export const SESSION_EXPIRED = 'Checkout session expired';
export const SESSION_ALREADY_COMPLETED = 'Checkout session already completed';

/**
 * The sandbox simulator (SPEC §4.6, DESIGN.md §3): records a test payment
 * with the chosen outcome. `confirmed` completes the session in the same
 * atomic append (payment and session streams, each at its loaded version),
 * so two confirmations of one session can never both commit. `failed` and
 * `requires_manual_review` leave the session PENDING.
 */
@Controller()
export class SimulatePaymentHandler {
  constructor(
    private readonly bus: BusClient,
    private readonly sessions: CheckoutSessionRepository,
    private readonly payments: PaymentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Handles('payments.simulate.v1')
  async simulate(@Payload() command: SimulatePaymentCommand): Promise<SimulatePaymentReply> {
    if ((command.session_id === undefined) === (command.reference === undefined)) {
      throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: exactly one of sessionId and reference is required');
    }
    if (command.livemode) throw new DomainError(ErrorCode.Forbidden, 'Simulate payment requires a test key');
    const scope: MerchantScope = { merchant_id: command.merchant_id, livemode: command.livemode };
    const sessionId =
      command.session_id ?? (await this.bus.request('ledger.checkout-sessions.resolve.v1', { ...scope, reference: command.reference! })).session_id;
    try {
      return await retryOnConcurrencyConflict(() => this.attempt(scope, sessionId, command));
    } catch (error) {
      // A retry of a simulation that already committed finds the session moved on: answer the original.
      const terminal = error instanceof DomainError && (error.message === SESSION_EXPIRED || error.message === SESSION_ALREADY_COMPLETED);
      const earlier = terminal ? await this.payments.replay(scope, command.idempotency) : undefined;
      if (earlier) return this.answer(earlier);
      throw error;
    }
  }

  private async attempt(scope: MerchantScope, sessionId: string, command: SimulatePaymentCommand): Promise<SimulatePaymentReply> {
    const { state: session, version } = await this.sessions.load(sessionId);
    if (!session || session.merchant_id !== scope.merchant_id || session.livemode !== scope.livemode) {
      throw new DomainError(ErrorCode.NotFound, SESSION_NOT_FOUND);
    }
    const now = this.clock.now();
    if (session.status === 'COMPLETED') throw new DomainError(ErrorCode.Conflict, SESSION_ALREADY_COMPLETED);
    if (!isOpen(session, now)) throw new DomainError(ErrorCode.Conflict, SESSION_EXPIRED);

    const paymentId = newId('transaction');
    const status = STATUS_OF[command.outcome];
    const paymentEvents = decide(null, {
      kind: 'record',
      now,
      payment: {
        payment_id: paymentId,
        merchant_id: scope.merchant_id,
        livemode: false,
        session_id: session.id,
        session_reference: session.reference,
        session_metadata: session.metadata,
        etransfer_ref: session.memo,
        amount: session.amount,
        sender_name: SIMULATED_SENDER.name,
        sender_email: SIMULATED_SENDER.email,
        comment: session.memo,
        status,
        verification_method: 'AUTO_EMAIL',
        review_reasons: status === 'REQUIRES_MANUAL_REVIEW' ? ['simulated_review'] : [],
        source: 'simulator',
        email_id: null,
        reference_number: null,
      },
    });
    const streams = [{ stream_id: transactionStreamId(paymentId), expected_version: 0, events: paymentEvents }];
    if (status === 'CONFIRMED') streams.push(sessionCompletion(session, version, now, paymentId));
    const reply = await this.payments.append(streams, scope, { idempotency: command.idempotency });
    return this.answer(reply, session);
  }

  /** The payment and the session after the append; a replay reloads the session, which may have moved on since. */
  private async answer(reply: AppendStreamsReply, before?: CheckoutSession): Promise<SimulatePaymentReply> {
    const payment = fold(reply.streams.find((s) => s.stream_id.startsWith(transactionStreamId('')))?.events ?? []) as Payment;
    let session: CheckoutSession;
    if (before && !reply.replayed) {
      const completion = reply.streams.find((s) => s.stream_id === checkoutSessionStreamId(before.id));
      session = completion ? (foldSession(completion.events, before) as CheckoutSession) : before;
    } else {
      session = (await this.sessions.load(payment.session_id!)).state as CheckoutSession;
    }
    return { transaction: transactionView(payment), session: sessionView(session), replayed: reply.replayed };
  }
}
