import type { Event, StoredEvent } from './stored-event';

/**
 * An aggregate as the runtime (libs/platform aggregate/) sees it: where its
 * streams are and how its events fold into state. Its `decide` stays its own
 * pure function, called by its handlers, since commands differ from one
 * aggregate to the next. Lives here so pure deciders can declare it without
 * importing the platform.
 */
export interface Aggregate<State, E extends Event> {
  streamId(id: string): string;
  readonly initial: State;
  evolve(state: State, event: E): State;
  /**
   * When set, the stream's last `foldsLast` events alone decide the state (each one replaces what came before): a
   * load reads only those, so a stream that grows with use, and is never closed, costs the same to load at any length.
   */
  readonly foldsLast?: number;
}

/**
 * Folds events read from the ledger into state. The one place the wire's
 * untyped events meet their aggregate's union: a stream holds only what its
 * aggregate's decider appended (facts and their merchant-visible twins), and
 * each `evolve` passes over types it does not know.
 */
export function foldStored<State, E extends Event>(aggregate: Aggregate<State, E>, events: readonly StoredEvent[], initial: State = aggregate.initial): State {
  const untyped: readonly Event[] = events;
  return (untyped as readonly E[]).reduce<State>((state, event) => aggregate.evolve(state, event), initial);
}
