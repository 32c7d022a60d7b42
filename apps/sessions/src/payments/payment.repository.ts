import { Injectable } from '@nestjs/common';
import {
  type AppendStreamsReply,
  DomainError,
  ErrorCode,
  type IdempotencyToken,
  type MerchantScope,
  type StreamAppend,
  transactionStreamId,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { fold, type PaymentState } from './payment.decider';

/** Rounds of load, decide, append before a contended command gives up. */

/** Payment streams in the ledger, and the atomic multi-stream append that moves a payment and its session together. */
@Injectable()
export class PaymentRepository {
  constructor(private readonly bus: BusClient) {}

  async load(paymentId: string): Promise<{ state: PaymentState; version: number }> {
    const stream = await this.bus.request('ledger.stream.read.v1', { stream_id: transactionStreamId(paymentId) });
    return { state: fold(stream.events), version: stream.version };
  }

  append(
    streams: StreamAppend[],
    scope: MerchantScope,
    options: { idempotency?: IdempotencyToken; causationId?: string } = {},
  ): Promise<AppendStreamsReply> {
    return this.bus.request('ledger.append-streams.v1', {
      streams,
      metadata: {
        merchant_id: scope.merchant_id,
        livemode: scope.livemode,
        ...(options.causationId ? { causation_id: options.causationId } : {}),
      },
      ...(options.idempotency ? { idempotency: options.idempotency } : {}),
    });
  }

  /** The append an idempotency key already recorded, or undefined when it recorded none. */
  async replay(scope: MerchantScope, idempotency: IdempotencyToken): Promise<AppendStreamsReply | undefined> {
    try {
      return await this.bus.request('ledger.idempotency.replay.v1', { ...scope, idempotency });
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.NotFound) return undefined;
      throw error;
    }
  }
}
