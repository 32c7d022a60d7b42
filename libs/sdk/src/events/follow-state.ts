/*
 * Following the merchant event log without losing or repeating events. The
 * log is ordered by append position, and an append may commit a moment
 * after a later one is already visible; so each look goes back a settle
 * window behind the newest event handled, and the ids handled within that
 * window keep those events from being handled twice. Pure: the caller reads
 * the log and keeps the state (the CLI's listen in a file, the gateway's
 * event stream per connection, which reads the log forward).
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

export const FOLLOW_FROM_START: FollowState = { since_ms: 0, handled: {} };

/** A state that continues after `event` (it and what came before count as handled). */
export const followAfter = (event: LoggedEvent): FollowState => ({ since_ms: Date.parse(event.created_at), handled: { [event.id]: Date.parse(event.created_at) } });

/**
 * A state that continues after everything in `newestFirst` (a page of the
 * log's newest events): a first follow "from now" starts with what the log
 * holds already handled, where followAfter(the newest) would send again the
 * events of the settle window before it. Events of that window beyond the
 * page (more than a page within SETTLE_WINDOW_MS) would still be sent.
 */
export const followAfterAll = (newestFirst: readonly LoggedEvent[]): FollowState => [...newestFirst].reverse().reduce(recordHandled, FOLLOW_FROM_START);

/** Whether `event` is older than anything still unsettled: a read of the log need not send it again. */
export const isBeyondWindow = (state: FollowState, event: LoggedEvent): boolean => Date.parse(event.created_at) < state.since_ms - SETTLE_WINDOW_MS;

export const isHandled = (state: FollowState, event: LoggedEvent): boolean => event.id in state.handled;

/** The state after `event`: its time if newer, its id remembered, ids older than the window forgotten. */
export function recordHandled(state: FollowState, event: LoggedEvent): FollowState {
  const at = Date.parse(event.created_at);
  const sinceMs = Math.max(state.since_ms, at);
  const handled = Object.fromEntries(Object.entries({ ...state.handled, [event.id]: at }).filter(([, time]) => time >= sinceMs - SETTLE_WINDOW_MS));
  return { since_ms: sinceMs, handled };
}
