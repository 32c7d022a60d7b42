import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type AppendStreamsReply,
  DomainError,
  ErrorCode,
  type MerchantScope,
  REFUND_OPEN_RULE,
  REFUND_STREAM,
  RequestRefundCommand,
  refundStreamId,
  type RefundView,
  type StreamAppend,
} from '@pp/contracts';
import { type Clock, newId } from '@pp/kernel';
import { Handles, retryOnConcurrencyConflict } from '@pp/platform';
import { CLOCK } from '../refunds.tokens';
import { decide, fold, type Refund } from './refund.decider';
import { RefundRepository } from './refund.repository';
import { refundView } from './refund.view';

export const PAYMENT_ALREADY_REFUNDED = 'Payment already refunded';

/**
 * A full refund of a payment (SPEC §3.3), from the merchant API or the
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
    private readonly refunds: RefundRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Handles('refunds.request.v1')
  async request(@Payload() command: RequestRefundCommand): Promise<RefundView & { replayed: boolean }> {
    const scope: MerchantScope = { merchant_id: command.merchant_id, livemode: command.livemode };
    try {
      return await retryOnConcurrencyConflict(() => this.attempt(scope, command));
    } catch (error) {
      // A retry of a request that already committed finds the payment held or refunded: answer the original.
      const refused = error instanceof DomainError && error.code === ErrorCode.Conflict;
      const earlier = refused && command.idempotency ? await this.refunds.replay(scope, command.idempotency) : undefined;
      if (earlier) return answer(earlier);
      throw error;
    }
  }

  private async attempt(scope: MerchantScope, command: RequestRefundCommand): Promise<RefundView & { replayed: boolean }> {
    const refundId = newId('refund');
    const { payment, append: paymentRefund } = await this.refunds.decidePaymentRefund(scope, command.payment_id, refundId);
    if (!paymentRefund) throw new DomainError(ErrorCode.Conflict, PAYMENT_ALREADY_REFUNDED);
    const events = decide(null, {
      kind: 'request',
      refundId,
      payment: { id: payment.id, merchant_id: scope.merchant_id, livemode: payment.livemode, amount: payment.amount },
      requestedBy: command.requested_by,
      reason: command.reason ?? null,
      now: this.clock.now(),
    });
    const streams: StreamAppend[] = [{ stream_id: refundStreamId(refundId), expected_version: 0, events }];
    if (!scope.livemode) streams.push(paymentRefund);
    try {
      return answer(await this.refunds.append(streams, scope, { idempotency: command.idempotency, causationId: `refund-request:${refundId}` }));
    } catch (error) {
      // The refund holding the payment may have completed meanwhile: say so rather than "open".
      const held = error instanceof DomainError && error.details?.rule === REFUND_OPEN_RULE;
      if (held && !(await this.refunds.decidePaymentRefund(scope, command.payment_id, refundId)).append) {
        throw new DomainError(ErrorCode.Conflict, PAYMENT_ALREADY_REFUNDED);
      }
      throw error;
    }
  }
}

function answer(reply: AppendStreamsReply): RefundView & { replayed: boolean } {
  const stream = reply.streams.find((s) => s.stream_id.startsWith(`${REFUND_STREAM}-`));
  const refund = fold(stream?.events ?? []) as Refund;
  return { ...refundView(refund), replayed: reply.replayed };
}
