/*
 * Following the merchant event log without losing or repeating events. The
 * log is ordered by append position, and an append may commit a moment
 * after a later one is already visible; so each look goes back a settle
 * window behind the newest event handled, and the ids handled within that
 * window keep those events from being handled twice. No I/O: the caller
 * reads the log and keeps the state (the CLI's listen in a file, the
 * gateway's event stream per connection, which reads the log forward);
 * recordHandled changes the state it is given, at a constant cost per event.
 */

export const SETTLE_WINDOW_MS = 10_000;

/** The newest handled event's time, and the ids handled since that time minus the window. */
export interface FollowState {
  since_ms: number;
  handled: Record<string, number>;
}

interface LoggedEvent {
  id: string;
  created_at: string;
}

/** The log's first event and every one after it are still to handle (a fresh state: recordHandled changes it). */
export const followFromStart = (): FollowState => ({ since_ms: FROM_START_MS, handled: {} });

/** `since_ms` of a state that follows from the log's start. */
export const FROM_START_MS = 0;

/** A state that continues after `event` (it and what came before count as handled). */
export const followAfter = (event: LoggedEvent): FollowState => ({ since_ms: Date.parse(event.created_at), handled: { [event.id]: Date.parse(event.created_at) } });

/**
 * A state that continues after everything in `newestFirst` (a page of the
 * log's newest events): a first follow "from now" starts with what the log
 * holds already handled, where followAfter(the newest) would send again the
 * events of the settle window before it. Events of that window beyond the
 * page (more than a page within SETTLE_WINDOW_MS) would still be sent.
 */
export const followAfterAll = (newestFirst: readonly LoggedEvent[]): FollowState => [...newestFirst].reverse().reduce(recordHandled, followFromStart());

/** Whether `event` is older than anything still unsettled: a read of the log need not send it again. */
export const isBeyondWindow = (state: FollowState, event: LoggedEvent): boolean => Date.parse(event.created_at) < state.since_ms - SETTLE_WINDOW_MS;

export const isHandled = (state: FollowState, event: LoggedEvent): boolean => Object.hasOwn(state.handled, event.id);

/**
 * Records `event` as handled, in place (and answers the same state): its id remembered, its time if newer, and ids
 * older than the window forgotten. Forgetting looks at every id remembered, so it runs when the newest time enters
 * another window's span of the clock, not at every event: an id is then kept for up to two windows and looked at a
 * bounded number of times, and a burst of thousands of events within one window costs the same per event as one
 * alone. Rebuilding the ids at every event cost the whole window each time, which grew with the square of a burst.
 */
export function recordHandled(state: FollowState, event: LoggedEvent): FollowState {
  const at = Date.parse(event.created_at);
  state.handled[event.id] = at;
  if (at > state.since_ms) {
    const anotherSpan = Math.floor(at / SETTLE_WINDOW_MS) !== Math.floor(state.since_ms / SETTLE_WINDOW_MS);
    state.since_ms = at;
    if (anotherSpan) forgetBeyondWindow(state);
  }
  return state;
}

function forgetBeyondWindow(state: FollowState): void {
  const oldest = state.since_ms - SETTLE_WINDOW_MS;
  for (const [id, time] of Object.entries(state.handled)) if (time < oldest) delete state.handled[id];
}
