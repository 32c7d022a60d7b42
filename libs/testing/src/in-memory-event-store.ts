import {
  type AppendStreamsReply,
  DomainError,
  ErrorCode,
  type Event,
  type IdempotencyToken,
  type MerchantScope,
  type StoredEvent,
  type StreamAppend,
  IDEMPOTENCY_KEY_REUSED,
  commitBeforePassed,
} from '@pp/contracts';
import { type AppendOptions, AggregateStore, CommandRunner, type EventStore } from '@pp/platform';

/**
 * The ledger's append rules without a process, for tests of handler logic
 * (CommandRunner, handlers): per-stream expected versions (and the versions
 * of the streams an append requires unchanged)
 * (CONCURRENCY_CONFLICT as the ledger words it), all-or-nothing multi-stream
 * appends, and idempotency keys whose replay answers the original append. It
 * keeps no read models, so the rules their unique indexes enforce (taken
 * memo, one open refund per payment) are not checked here.
 */
export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly keys = new Map<string, { fingerprint: string; reply: AppendStreamsReply }>();
  private position = 0;

  /** With a clock, appends' `commitBefore` is kept as the ledger keeps it (by the ledger's clock, here this one). */
  constructor(private readonly clock?: { now: () => Date }) {}

  /** Seeds a stream's history (the "given" of a handler test), as if appended by `scope`. */
  given(streamId: string, events: readonly Event[], scope: MerchantScope = { merchant_id: 'mer_1', livemode: false }): this {
    this.write({ stream_id: streamId, expected_version: this.version(streamId), events: [...events] }, scope, {});
    return this;
  }

  /** Every event of a stream, in order (the "then"). */
  events(streamId: string): StoredEvent[] {
    return [...(this.streams.get(streamId) ?? [])];
  }

  /** The ids of every stream written so far (a "then" on what was created). */
  streamIds(): string[] {
    return [...this.streams.keys()];
  }

  async readStream(streamId: string, last?: number): Promise<{ version: number; events: StoredEvent[] }> {
    await Promise.resolve(); // answer asynchronously, as over the bus, so racing commands interleave
    const events = this.events(streamId);
    return { version: this.version(streamId), events: last === undefined ? events : events.slice(-last) };
  }

  async appendStreams(streams: StreamAppend[], scope: MerchantScope, options: AppendOptions = {}): Promise<AppendStreamsReply> {
    await Promise.resolve();
    if (options.idempotency) {
      const earlier = this.keys.get(this.keyOf(scope, options.idempotency));
      if (earlier) return this.replayOf(earlier, options.idempotency);
    }
    // As the ledger: an append that would commit after its commit_before is refused, as a conflict, once its replay is ruled out.
    if (options.commitBefore && this.clock && this.clock.now().getTime() >= options.commitBefore.getTime()) throw commitBeforePassed(options.commitBefore.toISOString());
    const required = [...streams.map((stream) => ({ stream_id: stream.stream_id, version: stream.expected_version })), ...(options.unchanged ?? [])];
    const moved = required.find((stream) => this.version(stream.stream_id) !== stream.version);
    if (moved) {
      throw new DomainError(ErrorCode.ConcurrencyConflict, `Stream ${moved.stream_id} is no longer at version ${moved.version}`, {
        stream_id: moved.stream_id,
        expected_version: moved.version,
      });
    }
    const reply: AppendStreamsReply = { streams: streams.map((stream) => this.write(stream, scope, options)), replayed: false };
    if (options.idempotency) this.keys.set(this.keyOf(scope, options.idempotency), { fingerprint: options.idempotency.fingerprint, reply });
    return reply;
  }

  async replay(scope: MerchantScope, idempotency: IdempotencyToken): Promise<AppendStreamsReply | undefined> {
    await Promise.resolve();
    const earlier = this.keys.get(this.keyOf(scope, idempotency));
    return earlier && this.replayOf(earlier, idempotency);
  }

  private version(streamId: string): number {
    return this.streams.get(streamId)?.length ?? 0;
  }

  private write(stream: StreamAppend, scope: MerchantScope, options: AppendOptions) {
    const existing = this.streams.get(stream.stream_id) ?? [];
    const written = stream.events.map<StoredEvent>((event, i) => ({
      id: `evt_${++this.position}`,
      position: this.position,
      stream_id: stream.stream_id,
      version: stream.expected_version + i + 1,
      type: event.type,
      schema_version: event.schema_version,
      data: JSON.parse(JSON.stringify(event.data)),
      metadata: { merchant_id: scope.merchant_id, livemode: scope.livemode, ...(options.causationId ? { causation_id: options.causationId } : {}) },
      created_at: new Date(0).toISOString(),
    }));
    this.streams.set(stream.stream_id, [...existing, ...written]);
    return { stream_id: stream.stream_id, version: existing.length + written.length, events: written };
  }

  private keyOf(scope: MerchantScope, idempotency: IdempotencyToken): string {
    return JSON.stringify([scope.merchant_id, scope.livemode, idempotency.key]);
  }

  private replayOf(earlier: { fingerprint: string; reply: AppendStreamsReply }, idempotency: IdempotencyToken): AppendStreamsReply {
    if (earlier.fingerprint !== idempotency.fingerprint) {
      throw new DomainError(ErrorCode.ValidationFailed, IDEMPOTENCY_KEY_REUSED);
    }
    return { ...earlier.reply, replayed: true };
  }
}

/**
 * A CommandRunner over an in-memory store (a fresh one, or one shared with
 * another runner whose clock differs), deciding at whatever `clock.now()`
 * answers when a round starts.
 */
export function inMemoryRuntime(clock: { now: () => Date }, store = new InMemoryEventStore(clock)): { store: InMemoryEventStore; runner: CommandRunner } {
  return { store, runner: new CommandRunner(new AggregateStore(store), store, clock) };
}
