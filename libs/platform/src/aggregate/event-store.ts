import type { AppendStreamsReply, IdempotencyToken, MerchantScope, StoredEvent, StreamAppend, UnchangedStream } from '@pp/contracts';

/** Who caused an append, beyond the merchant scope it is recorded under. */
export interface AppendOptions {
  /** Recorded with the append: a second append with the same key appends nothing and answers the first one (replayed). */
  idempotency?: IdempotencyToken;
  causationId?: string;
  /** Streams the decision read and leaves alone: the append commits only if each is still at its version. */
  unchanged?: UnchangedStream[];
  /** The moment the append must commit before, by the ledger's clock (`commit_before`): CONCURRENCY_CONFLICT if it would commit later. */
  commitBefore?: Date;
}

/**
 * Where aggregates' streams live. Production reads and appends through the
 * ledger over the bus (LedgerEventStore); tests of handler logic use the
 * in-memory one in @pp/testing, which keeps the same rules (per-stream
 * expected versions, all-or-nothing appends, idempotency keys).
 */
export interface EventStore {
  /** The stream's events in order, or only its `last` ones, and its last version (0, and no events, when it does not exist). */
  readStream(streamId: string, last?: number): Promise<{ version: number; events: StoredEvent[] }>;
  /**
   * Appends to every stream or to none, each at its expected version, and
   * only while every `unchanged` stream is still at its version;
   * CONCURRENCY_CONFLICT when one has moved.
   */
  appendStreams(streams: StreamAppend[], scope: MerchantScope, options?: AppendOptions): Promise<AppendStreamsReply>;
  /** The append an idempotency key already recorded, or undefined when it recorded none. */
  replay(scope: MerchantScope, idempotency: IdempotencyToken): Promise<AppendStreamsReply | undefined>;
}

/** Nest token of the EventStore. */
export const EVENT_STORE = Symbol('EVENT_STORE');
