import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type AppendStreamsReply,
  checkoutSessionStreamId,
  DomainError,
  ErrorCode,
  foldStored,
  type MerchantScope,
  SESSION_COMPLETED_RULE,
  SESSION_EXPIRED_RULE,
  SimulatePaymentCommand,
  type SimulatePaymentReply,
  type SimulatedOutcome,
  type PaymentRecordedV1,
  transactionStreamId,
} from '@pp/contracts';
import { type Clock, newId } from '@pp/kernel';
import { BusClient, CLOCK, type CommandRound, CommandRunner, type Decision, Handles } from '@pp/platform';
import { assertOpen, type CheckoutSession, checkoutSessionAggregate, statusAt } from '../checkout-session/checkout-session.decider';
import { sessionView } from '../checkout-session/checkout-session.view';
import { namedSessionId } from '../checkout-session/session-id';
import { decide, type Payment, paymentAggregate } from './payment.decider';
import { transactionView } from './payment.view';
import { sessionPart } from './session-completion';

const STATUS_OF: Record<SimulatedOutcome, PaymentRecordedV1['status']> = {
  confirmed: 'CONFIRMED',
  failed: 'FAILED',
  requires_manual_review: 'REQUIRES_MANUAL_REVIEW',
};

export const SIMULATED_SENDER = { name: 'Test Payer', email: 'test.payer@example.com' } as const;

/** The refusals a retry of a simulation that already committed gets: the session it moved on is no longer open. */
const CLOSED_SESSION_RULES: ReadonlySet<unknown> = new Set([SESSION_COMPLETED_RULE, SESSION_EXPIRED_RULE]);

/**
 * The sandbox simulator (PRODUCT-RULES §4.6, PRODUCT-RULES §D3): records a test payment
 * with the chosen outcome. `confirmed` completes the session in the same
 * atomic append (payment and session streams, each at its loaded version),
 * so two confirmations of one session can never both commit. `failed` and
 * `requires_manual_review` leave the session PENDING, and commit only while
 * it is still at the version they found open (the append's `unchanged`).
 */
@Controller()
export class SimulatePaymentHandler {
  constructor(
    private readonly bus: BusClient,
    private readonly runner: CommandRunner,
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
      command.session_id === undefined
        ? (await this.bus.request('ledger.checkout-sessions.resolve.v1', { ...scope, reference: command.reference! })).session_id
        : namedSessionId(command.session_id);
    try {
      return await this.runner.run((round) => this.attempt(round, scope, sessionId, command));
    } catch (error) {
      // A retry of a simulation that already committed finds the session moved on: answer the original.
      const closed = error instanceof DomainError && CLOSED_SESSION_RULES.has(error.details?.rule);
      const earlier = closed ? await this.runner.store.replay(scope, command.idempotency) : undefined;
      if (earlier) return this.answer(earlier);
      throw error;
    }
  }

  private async attempt(
    round: CommandRound,
    scope: MerchantScope,
    sessionId: string,
    command: SimulatePaymentCommand,
  ): Promise<Decision<SimulatePaymentReply>> {
    const { state: session, version } = await round.load(checkoutSessionAggregate, sessionId);
    if (!session || session.merchant_id !== scope.merchant_id || session.livemode !== scope.livemode) {
      throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
    }
    const now = round.now();
    // Every outcome needs an open session, not only the one that completes it.
    assertOpen(session, now);

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
    // The other outcomes leave the session alone, but still rest on its being open: it must not move before they commit,
    // and they too must commit before its deadline (PRODUCT-RULES §4.6: whatever the outcome). Refused then, the
    // simulation is decided again on an expired session: the 409 a simulation after the deadline gets.
    const onSession = sessionPart(session, version, now, paymentId, status === 'CONFIRMED');
    return {
      append: [{ stream_id: transactionStreamId(paymentId), expected_version: 0, events: paymentEvents }, ...onSession.append],
      scope,
      options: { idempotency: command.idempotency, unchanged: onSession.unchanged, commitBefore: onSession.commitBefore ?? new Date(session.expires_at) },
      answer: (reply) => this.answer(reply, session),
    };
  }

  /** The payment and the session after the append; a replay reloads the session, which may have moved on since. */
  private async answer(reply: AppendStreamsReply, before?: CheckoutSession): Promise<SimulatePaymentReply> {
    const payment = foldStored(paymentAggregate, reply.streams.find((s) => s.stream_id.startsWith(transactionStreamId('')))?.events ?? []) as Payment;
    let session: CheckoutSession;
    if (before && !reply.replayed) {
      const completion = reply.streams.find((s) => s.stream_id === checkoutSessionStreamId(before.id));
      session = completion ? (foldStored(checkoutSessionAggregate, completion.events, before) as CheckoutSession) : before;
    } else {
      session = (await this.runner.aggregates.load(checkoutSessionAggregate, payment.session_id!)).state as CheckoutSession;
    }
    // A replay answers later, perhaps past the deadline before the sweep recorded it: shown as a GET would show it.
    return { transaction: transactionView(payment), session: { ...sessionView(session), status: statusAt(session, this.clock.now()) }, replayed: reply.replayed };
  }
}
