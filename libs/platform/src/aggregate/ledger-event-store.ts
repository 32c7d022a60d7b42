import { Injectable } from '@nestjs/common';
import { type AppendStreamsReply, DomainError, ErrorCode, type IdempotencyToken, type MerchantScope, type StoredEvent, type StreamAppend } from '@pp/contracts';
import { BusClient } from '../nats';
import type { AppendOptions, EventStore } from './event-store';

/** The ledger's event store, over the bus: every append is the atomic multi-stream one. */
@Injectable()
export class LedgerEventStore implements EventStore {
  constructor(private readonly bus: BusClient) {}

  readStream(streamId: string): Promise<{ version: number; events: StoredEvent[] }> {
    return this.bus.request('ledger.stream.read.v1', { stream_id: streamId });
  }

  appendStreams(streams: StreamAppend[], scope: MerchantScope, options: AppendOptions = {}): Promise<AppendStreamsReply> {
    return this.bus.request('ledger.append-streams.v1', {
      streams,
      metadata: {
        merchant_id: scope.merchant_id,
        livemode: scope.livemode,
        ...(options.causationId ? { causation_id: options.causationId } : {}),
      },
      ...(options.idempotency ? { idempotency: options.idempotency } : {}),
      ...(options.unchanged?.length ? { unchanged: options.unchanged } : {}),
    });
  }

  async replay(scope: MerchantScope, idempotency: IdempotencyToken): Promise<AppendStreamsReply | undefined> {
    try {
      return await this.bus.request('ledger.idempotency.replay.v1', { merchant_id: scope.merchant_id, livemode: scope.livemode, idempotency });
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.NotFound) return undefined;
      throw error;
    }
  }
}
