import type { AppendStreamsReply, StoredEvent, StreamAppend } from '@pp/contracts';
import { LruMap } from '@pp/kernel';

/** A stream as this process last saw it: every event, and the version after the last. */
export interface KnownStream {
  version: number;
  events: readonly StoredEvent[];
}

/** Streams remembered per process: a few MB of recent sessions and payments, enough for a payer who pays within minutes. */
export const RECENT_STREAMS_MAX = 2000;

/**
 * The streams this process read or appended last, least recently used first
 * out. Only a hint: another process may have appended since, so a decision
 * made on a remembered stream is only ever appended at its remembered
 * version, which the ledger refuses when the stream has moved (CommandRunner
 * then decides again on a fresh read). An append is remembered only when it
 * continues what was remembered; anything else forgets the stream.
 */
export class RecentStreams {
  private readonly streams: LruMap<string, KnownStream>;

  constructor(max = RECENT_STREAMS_MAX) {
    this.streams = new LruMap(max);
  }

  get(streamId: string): KnownStream | undefined {
    return this.streams.get(streamId);
  }

  /** A stream just read from the ledger. */
  read(streamId: string, stream: KnownStream): void {
    this.streams.set(streamId, stream);
  }

  /** Streams just appended to: each `appended[i]` answered by `reply.streams[i]`. */
  appended(appended: readonly StreamAppend[], reply: AppendStreamsReply): void {
    appended.forEach((append, i) => {
      const result = reply.streams[i];
      const before = append.expected_version === 0 ? { version: 0, events: [] } : this.streams.peek(append.stream_id);
      const continues = !reply.replayed && result?.stream_id === append.stream_id && before?.version === append.expected_version;
      if (continues) this.streams.set(append.stream_id, { version: result.version, events: [...before.events, ...result.events] });
      else this.streams.delete(append.stream_id);
    });
  }
}
