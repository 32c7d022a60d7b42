import { Inject, Injectable } from '@nestjs/common';
import { type Aggregate, type AppendStreamsReply, type Event, foldStored, type StreamAppend } from '@pp/contracts';
import { EVENT_STORE, type EventStore } from './event-store';
import { type KnownStream, RecentStreams } from './recent-streams';

/** An aggregate's state as loaded, with the version a decision on it must be appended at. */
export interface Loaded<State, E extends Event> {
  state: State;
  version: number;
  /** This stream's part of an append: `events` if the stream is still at the loaded version. */
  append(events: E[]): StreamAppend;
}

/**
 * Loads any aggregate's stream from the event store and folds it, and
 * remembers the streams it read and appended (RecentStreams) for commands
 * that may decide on them without a read (CommandRunner).
 */
@Injectable()
export class AggregateStore {
  private readonly recentStreams = new RecentStreams();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** The stream as the event store has it now. */
  async load<State, E extends Event>(aggregate: Aggregate<State, E>, id: string): Promise<Loaded<State, E>> {
    const streamId = aggregate.streamId(id);
    const stream = await this.store.readStream(streamId, aggregate.foldsLast);
    this.recentStreams.read(streamId, stream);
    return loaded(aggregate, streamId, stream);
  }

  /**
   * The stream as this process last read or appended it, when it remembers
   * it: maybe stale, so only for a decision appended at its version.
   */
  recall<State, E extends Event>(aggregate: Aggregate<State, E>, id: string): Loaded<State, E> | undefined {
    const streamId = aggregate.streamId(id);
    const stream = this.recentStreams.get(streamId);
    return stream && loaded(aggregate, streamId, stream);
  }

  /** Remembers what an append (`appended`, answered by `reply`) made of its streams. */
  appended(appended: readonly StreamAppend[], reply: AppendStreamsReply): void {
    this.recentStreams.appended(appended, reply);
  }

  /**
   * A new aggregate under a fresh id: its initial state at version 0, with no
   * read, since no stream can have that id yet. Its first append still
   * expects version 0, so an id that did exist is refused, never overwritten.
   */
  start<State, E extends Event>(aggregate: Aggregate<State, E>, id: string): Loaded<State, E> {
    const streamId = aggregate.streamId(id);
    return { state: aggregate.initial, version: 0, append: (events) => ({ stream_id: streamId, expected_version: 0, events }) };
  }
}

const loaded = <State, E extends Event>(aggregate: Aggregate<State, E>, streamId: string, stream: KnownStream): Loaded<State, E> => ({
  // A stream remembered across appends holds more than its last events: the fold takes only those it names.
  state: foldStored(aggregate, aggregate.foldsLast === undefined ? stream.events : stream.events.slice(-aggregate.foldsLast)),
  version: stream.version,
  append: (events) => ({ stream_id: streamId, expected_version: stream.version, events }),
});
