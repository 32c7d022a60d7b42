import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CancelRefundCommand,
  CompleteRefundCommand,
  DomainError,
  ErrorCode,
  FailRefundCommand,
  foldStored,
  type MerchantScope,
  RefundAdminCommand,
  type RefundStageReply,
  refundStreamId,
  RejectRefundCommand,
  type StreamAppend,
} from '@pp/contracts';
import { CommandRunner, Handles } from '@pp/platform';
import { PaymentRefunds } from './payment-refunds';
import { decide, type Refund, refundAggregate, type RefundCommand } from './refund.decider';
import { refundView } from './refund.view';
import { PAYMENT_ALREADY_REFUNDED } from './request-refund.handler';

type StageCommand = RefundCommand extends infer C ? (C extends { kind: 'request' } ? never : Omit<C, 'now'>) : never;

/**
 * The stages after REQUESTED (PRODUCT-RULES §3.3). The platform admin drives the live
 * flow (approve or reject, mark sent, complete with evidence, or fail when
 * the outbound transfer bounced); the merchant may cancel before approval.
 * Completing appends refund.completed and the payment's refund
 * (transaction.refunded, payment.refunded) in one atomic append, each stream
 * at the version it was decided on: a repeated or racing completion finds the
 * refund COMPLETED on its retry and appends nothing, so the merchant sees
 * exactly one payment.refunded.
 */
@Controller()
export class RefundStageHandler {
  constructor(
    private readonly runner: CommandRunner,
    private readonly payments: PaymentRefunds,
  ) {}

  @Handles('refunds.approve.v1')
  approve(@Payload() command: RefundAdminCommand): Promise<RefundStageReply> {
    return this.move(command.refund_id, null, { kind: 'approve', by: command.admin_id });
  }

  @Handles('refunds.reject.v1')
  reject(@Payload() command: RejectRefundCommand): Promise<RefundStageReply> {
    return this.move(command.refund_id, null, { kind: 'reject', by: command.admin_id, rejectionReason: command.rejection_reason });
  }

  @Handles('refunds.mark-sent.v1')
  markSent(@Payload() command: RefundAdminCommand): Promise<RefundStageReply> {
    return this.move(command.refund_id, null, { kind: 'mark_sent', by: command.admin_id });
  }

  @Handles('refunds.complete.v1')
  complete(@Payload() command: CompleteRefundCommand): Promise<RefundStageReply> {
    return this.move(command.refund_id, null, {
      kind: 'complete',
      by: command.admin_id,
      outboundReference: command.outbound_reference,
      evidenceNote: command.evidence_note,
    });
  }

  @Handles('refunds.fail.v1')
  fail(@Payload() command: FailRefundCommand): Promise<RefundStageReply> {
    return this.move(command.refund_id, null, { kind: 'fail', by: command.admin_id, failureReason: command.failure_reason });
  }

  @Handles('refunds.cancel.v1')
  cancel(@Payload() command: CancelRefundCommand): Promise<RefundStageReply> {
    return this.move(command.refund_id, command, { kind: 'cancel', by: command.cancelled_by });
  }

  /** Load, decide, append; `scope` limits a merchant's command to its own refunds (admins see all). */
  private move(refundId: string, scope: MerchantScope | null, command: StageCommand): Promise<RefundStageReply> {
    return this.runner.run<RefundStageReply>(async ({ load, now }) => {
      const loaded = await load(refundAggregate, refundId);
      const state = loaded.state;
      if (!state || (scope && (state.merchant_id !== scope.merchant_id || state.livemode !== scope.livemode))) {
        throw new DomainError(ErrorCode.NotFound, 'Refund not found');
      }
      const events = decide(state, { ...command, now: now() } as RefundCommand);
      // Already at the stage the command leads to: answered as it is, and said so, so the caller's audit names no second actor.
      if (events.length === 0) return { append: false, answer: { ...refundView(state), changed: false } };
      const streams: StreamAppend[] = [loaded.append(events)];
      if (command.kind === 'complete') streams.push(await this.paymentRefund(state));
      return {
        append: streams,
        scope: state,
        options: { causationId: `refund-${command.kind}:${state.id}` },
        answer: (reply) => ({ ...refundView(foldStored(refundAggregate, reply.streams[0].events, state) as Refund), changed: true }),
      };
    });
  }

  /**
   * The payment's part of a completion. Only a refund's completion refunds a
   * payment, in the same append, so a REFUNDED payment here means a racing
   * completion of this refund won after it was loaded: reload and decide again.
   */
  private async paymentRefund(refund: Refund): Promise<StreamAppend> {
    const { append } = await this.payments.decide(refund, refund.payment_id, refund.id);
    if (!append) throw new DomainError(ErrorCode.ConcurrencyConflict, PAYMENT_ALREADY_REFUNDED, { stream_id: refundStreamId(refund.id) });
    return append;
  }
}
