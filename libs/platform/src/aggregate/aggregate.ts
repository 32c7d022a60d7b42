import { Inject, Injectable } from '@nestjs/common';
import { type Aggregate, type Event, foldStored, type StreamAppend } from '@pp/contracts';
import { EVENT_STORE, type EventStore } from './event-store';

/** An aggregate's state as loaded, with the version a decision on it must be appended at. */
export interface Loaded<State, E extends Event> {
  state: State;
  version: number;
  /** This stream's part of an append: `events` if the stream is still at the loaded version. */
  append(events: E[]): StreamAppend;
}

/** Loads any aggregate's stream from the event store and folds it. */
@Injectable()
export class AggregateStore {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async load<State, E extends Event>(aggregate: Aggregate<State, E>, id: string): Promise<Loaded<State, E>> {
    const streamId = aggregate.streamId(id);
    const stream = await this.store.readStream(streamId);
    return {
      state: foldStored(aggregate, stream.events),
      version: stream.version,
      append: (events) => ({ stream_id: streamId, expected_version: stream.version, events }),
    };
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
