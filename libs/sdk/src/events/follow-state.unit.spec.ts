import { followAfter, followAfterAll, isBeyondWindow, isHandled, SETTLE_WINDOW_MS } from './follow-state';

const T0 = Date.parse('2026-12-07T06:00:00.000Z');
const event = (id: string, secondsAfter: number) => ({ id, created_at: new Date(T0 + secondsAfter * 1000).toISOString() });
/** Whether a look at the log would send `logged` again from `state` (the follower's and the stream's test). */
const sentAgain = (state: ReturnType<typeof followAfter>, logged: ReturnType<typeof event>) => !isBeyondWindow(state, logged) && !isHandled(state, logged);

describe('follow state, starting "from now"', () => {
  // The log's newest page, newest first: two events a few seconds before the newest, one long before.
  const page = [event('evt_c', 20), event('evt_b', 17), event('evt_a', 15), event('evt_old', 0)];

  it('given the newest events, when following after all of them: none of them is sent again, a later one is', () => {
    const state = followAfterAll(page);
    expect(page.filter((logged) => sentAgain(state, logged))).toEqual([]);
    expect(sentAgain(state, event('evt_d', 21))).toBe(true);
  });

  it('given the newest event alone (followAfter), then the events of the settle window before it would be sent again: why a first follow counts the page', () => {
    const state = followAfter(page[0]);
    expect(page.filter((logged) => sentAgain(state, logged)).map((logged) => logged.id)).toEqual(['evt_b', 'evt_a']);
    expect(SETTLE_WINDOW_MS).toBeGreaterThan(5_000);
  });

  it('given an empty log, then the state follows from the start', () => {
    expect(followAfterAll([])).toEqual({ since_ms: 0, handled: {} });
  });
});
