import { Injectable } from '@nestjs/common';
import {
  type AppendStreamsReply,
  type DecideRefundReply,
  DomainError,
  ErrorCode,
  type IdempotencyToken,
  type MerchantScope,
  refundStreamId,
  type StreamAppend,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { fold, type RefundState } from './refund.decider';

/** Rounds of load, decide, append before a contended command gives up. */

/**
 * Refund streams in the ledger, the payment aggregate's refund decision
 * (asked of sessions, which owns payments), and the atomic multi-stream
 * append that writes both.
 */
@Injectable()
export class RefundRepository {
  constructor(private readonly bus: BusClient) {}

  async load(refundId: string): Promise<{ state: RefundState; version: number }> {
    const stream = await this.bus.request('ledger.stream.read.v1', { stream_id: refundStreamId(refundId) });
    return { state: fold(stream.events), version: stream.version };
  }

  /** NOT_FOUND 'Payment not found' for a payment outside the scope; CONFLICT for one that is neither CONFIRMED nor REFUNDED. */
  decidePaymentRefund(scope: MerchantScope, paymentId: string, refundId: string): Promise<DecideRefundReply> {
    return this.bus.request('payments.decide-refund.v1', { merchant_id: scope.merchant_id, livemode: scope.livemode, payment_id: paymentId, refund_id: refundId });
  }

  append(streams: StreamAppend[], scope: MerchantScope, options: { idempotency?: IdempotencyToken; causationId: string }): Promise<AppendStreamsReply> {
    return this.bus.request('ledger.append-streams.v1', {
      streams,
      metadata: { merchant_id: scope.merchant_id, livemode: scope.livemode, causation_id: options.causationId },
      ...(options.idempotency ? { idempotency: options.idempotency } : {}),
    });
  }

  /** The append an idempotency key already recorded, or undefined when it recorded none. */
  async replay(scope: MerchantScope, idempotency: IdempotencyToken): Promise<AppendStreamsReply | undefined> {
    try {
      return await this.bus.request('ledger.idempotency.replay.v1', { merchant_id: scope.merchant_id, livemode: scope.livemode, idempotency });
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.NotFound) return undefined;
      throw error;
    }
  }
}
