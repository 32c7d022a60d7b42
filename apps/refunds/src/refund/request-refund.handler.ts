import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type AppendStreamsReply,
  DomainError,
  ErrorCode,
  foldStored,
  type MerchantScope,
  REFUND_OPEN_RULE,
  REFUND_STREAM,
  RequestRefundCommand,
  type RefundView,
  type StreamAppend,
} from '@pp/contracts';
import { newId } from '@pp/kernel';
import { type CommandRound, CommandRunner, type Decision, Handles } from '@pp/platform';
import { PaymentRefunds } from './payment-refunds';
import { decide, type Refund, refundAggregate } from './refund.decider';
import { refundView } from './refund.view';

export const PAYMENT_ALREADY_REFUNDED = 'Payment already refunded';

type RequestReply = RefundView & { replayed: boolean };
/**
 * A full refund of a payment (PRODUCT-RULES §3.3), from the merchant API or the
 * dashboard. The payment aggregate (sessions) says whether it may be refunded
 * and how; at most one refund holds a payment, enforced by the refunds read
 * model's unique index in the append's transaction, so concurrent requests
 * leave exactly one. Test mode appends the whole flow and the payment's
 * refund in one atomic append (a crash can never strand it half-way); live
 * mode appends REQUESTED and waits for a platform admin.
 */
@Controller()
export class RequestRefundHandler {
  constructor(
    private readonly runner: CommandRunner,
    private readonly payments: PaymentRefunds,
  ) {}

  @Handles('refunds.request.v1')
  async request(@Payload() command: RequestRefundCommand): Promise<RefundView & { replayed: boolean }> {
    const scope: MerchantScope = { merchant_id: command.merchant_id, livemode: command.livemode };
    try {
      return await this.runner.run((round) => this.attempt(round, scope, command));
    } catch (caught) {
      const error = await this.heldOrRefunded(caught, scope, command.payment_id);
      // A retry of a request that already committed finds the payment held or refunded: answer the original.
      const refused = error instanceof DomainError && error.code === ErrorCode.Conflict;
      const earlier = refused && command.idempotency ? await this.runner.store.replay(scope, command.idempotency) : undefined;
      if (earlier) return answer(earlier);
      throw error;
    }
  }

  private async attempt(round: CommandRound, scope: MerchantScope, command: RequestRefundCommand): Promise<Decision<RequestReply>> {
    const refundId = newId('refund');
    const { payment, append: paymentRefund } = await this.payments.decide(scope, command.payment_id, refundId);
    if (!paymentRefund) throw new DomainError(ErrorCode.Conflict, PAYMENT_ALREADY_REFUNDED);
    const events = decide(null, {
      kind: 'request',
      refundId,
      payment: { id: payment.id, merchant_id: scope.merchant_id, livemode: payment.livemode, amount: payment.amount },
      requestedBy: command.requested_by,
      reason: command.reason ?? null,
      now: round.now(),
    });
    const streams: StreamAppend[] = [{ stream_id: refundAggregate.streamId(refundId), expected_version: 0, events }];
    if (!scope.livemode) streams.push(paymentRefund);
    return {
      append: streams,
      scope,
      options: { idempotency: command.idempotency, causationId: `refund-request:${refundId}` },
      answer,
    };
  }

  /**
   * When another refund holds the payment, that refund may have completed
   * meanwhile: say so rather than "open". Only a refinement: if sessions does
   * not answer, the refusal stands (a 503 would invite retries of a request
   * that cannot succeed).
   */
  private async heldOrRefunded(error: unknown, scope: MerchantScope, paymentId: string): Promise<unknown> {
    const held = error instanceof DomainError && error.details?.rule === REFUND_OPEN_RULE;
    if (!held) return error;
    const refunded = await this.payments.decide(scope, paymentId, newId('refund')).then(
      (reply) => !reply.append,
      () => false,
    );
    return refunded ? new DomainError(ErrorCode.Conflict, PAYMENT_ALREADY_REFUNDED) : error;
  }
}

function answer(reply: AppendStreamsReply): RequestReply {
  const stream = reply.streams.find((s) => s.stream_id.startsWith(`${REFUND_STREAM}-`));
  const refund = foldStored(refundAggregate, stream?.events ?? []) as Refund;
  return { ...refundView(refund), replayed: reply.replayed };
}
