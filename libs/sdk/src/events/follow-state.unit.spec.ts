import { followAfter, followAfterAll, followFromStart, isBeyondWindow, isHandled, recordHandled, SETTLE_WINDOW_MS } from './follow-state';

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

describe('follow state, recording what was handled', () => {
  it('given a burst of 5,000 events within one settle window (a gateway stream at a busy merchant), then each costs a bounded number of ids looked at, not the whole window', () => {
    const entries = jest.spyOn(Object, 'entries');
    try {
      let state = followFromStart();
      for (let i = 0; i < 5_000; i += 1) state = recordHandled(state, { id: `evt_${i}`, created_at: new Date(T0 + i).toISOString() });
      const looked = entries.mock.results.reduce((sum, result) => sum + (result.value as unknown[]).length, 0);
      expect(looked).toBeLessThan(5 * 5_000);
      expect(isHandled(state, { id: 'evt_0', created_at: new Date(T0).toISOString() })).toBe(true);
      expect(isHandled(state, { id: 'evt_4999', created_at: new Date(T0 + 4_999).toISOString() })).toBe(true);
    } finally {
      entries.mockRestore();
    }
  });

  it('given events a second apart for 100 s, then every id within the window is remembered and none older than two windows', () => {
    const state = followFromStart();
    for (let second = 0; second <= 100; second += 1) recordHandled(state, event(`evt_${second}`, second));
    const remembered = Object.keys(state.handled).map((id) => Number(id.slice(4)));
    expect(remembered).toEqual(expect.arrayContaining(Array.from({ length: 11 }, (_, i) => 90 + i)));
    expect(Math.min(...remembered)).toBeGreaterThanOrEqual(100 - (2 * SETTLE_WINDOW_MS) / 1000);
    expect(state.since_ms).toBe(T0 + 100_000);
  });

  it('given an event older than the newest, then it is remembered and the time does not move back', () => {
    const state = followAfter(event('evt_new', 20));
    recordHandled(state, event('evt_late', 15));
    expect(state).toEqual({ since_ms: T0 + 20_000, handled: { evt_new: T0 + 20_000, evt_late: T0 + 15_000 } });
  });

  it('given a state from the start, then each call gives a fresh one: recording on one leaves the next untouched', () => {
    recordHandled(followFromStart(), event('evt_a', 1));
    expect(followFromStart()).toEqual({ since_ms: 0, handled: {} });
  });
});
