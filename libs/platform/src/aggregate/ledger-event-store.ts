import { Inject, Injectable } from '@nestjs/common';
import {
  type AppendStreamsReply,
  DomainError,
  ErrorCode,
  type IdempotencyToken,
  type LedgerAppendSubject,
  type MerchantScope,
  type StoredEvent,
  type StreamAppend,
} from '@pp/contracts';
import { BusClient } from '../nats';
import type { AppendOptions, EventStore } from './event-store';

/** The subject this service appends through (aggregateRuntime): the ledger limits what each one may write. */
export const LEDGER_APPEND_SUBJECT = Symbol('LEDGER_APPEND_SUBJECT');

/** The ledger's event store, over the bus: every append is the atomic multi-stream one. */
@Injectable()
export class LedgerEventStore implements EventStore {
  constructor(
    private readonly bus: BusClient,
    @Inject(LEDGER_APPEND_SUBJECT) private readonly appendSubject: LedgerAppendSubject,
  ) {}

  readStream(streamId: string, last?: number): Promise<{ version: number; events: StoredEvent[] }> {
    return this.bus.request('ledger.stream.read.v1', { stream_id: streamId, ...(last === undefined ? {} : { last }) });
  }

  appendStreams(streams: StreamAppend[], scope: MerchantScope, options: AppendOptions = {}): Promise<AppendStreamsReply> {
    return this.bus.request(this.appendSubject, {
      streams,
      metadata: {
        merchant_id: scope.merchant_id,
        livemode: scope.livemode,
        ...(options.causationId ? { causation_id: options.causationId } : {}),
      },
      ...(options.idempotency ? { idempotency: options.idempotency } : {}),
      ...(options.unchanged?.length ? { unchanged: options.unchanged } : {}),
      ...(options.commitBefore ? { commit_before: options.commitBefore.toISOString() } : {}),
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
