import type { ListPage } from '@pp/contracts';
import { followFromStart, followAfter, type FollowState, recordHandled, SETTLE_WINDOW_MS } from '@pp/sdk';
import { lookStart, nextPageStart, type PageStart, stillToSend } from './forward-look';

interface LoggedEvent {
  id: string;
  created_at: string;
}

const T = Date.UTC(2026, 10, 23, 18, 0, 0);
const event = (id: string, atMs: number): LoggedEvent => ({ id, created_at: new Date(atMs).toISOString() });

/** The ledger's oldest-first page over `log` (in log order), as merchant-event-queries.handler.ts answers it. */
function oldestFirst(log: LoggedEvent[], start: PageStart, limit: number): ListPage<LoggedEvent> {
  const createdBefore = (time: string) => log.map((e, i) => (Date.parse(e.created_at) < Date.parse(time) ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
  const from = start.starting_after ? log.findIndex((e) => e.id === start.starting_after) + 1 : start.created_since ? createdBefore(start.created_since) + 1 : 0;
  const rows = log.slice(from, from + limit + 1);
  return { data: rows.slice(0, limit), has_more: rows.length > limit };
}

/** One look as the event stream takes it: page after page until the log's end, sending what it has yet to send. */
function look(log: LoggedEvent[], state: FollowState, limit: number) {
  const sent: string[] = [];
  let pages = 0;
  for (let start: PageStart | undefined = lookStart(state); start; pages++) {
    const page = oldestFirst(log, start, limit);
    for (const e of page.data) {
      if (!stillToSend(state, e)) continue;
      sent.push(e.id);
      state = recordHandled(state, e);
    }
    start = nextPageStart(page);
  }
  return { sent, pages, state };
}

describe('an event stream reading the log forward', () => {
  it('given a stream that handled nothing, when a look starts, then it reads from the start of the log', () => {
    expect(lookStart(followFromStart())).toEqual({});
  });

  it('given a stream after an event, when a look starts, then it reads the events created since the settle window’s edge behind it', () => {
    expect(lookStart(followAfter(event('evt_last', T)))).toEqual({ created_since: new Date(T - SETTLE_WINDOW_MS).toISOString() });
  });

  it('given a page with more after it, then the next begins after its last event; given the last page, then the look is over', () => {
    expect(nextPageStart({ data: [event('evt_1', T), event('evt_2', T)], has_more: true })).toEqual({ starting_after: 'evt_2' });
    expect(nextPageStart({ data: [event('evt_1', T)], has_more: false })).toBeUndefined();
    expect(nextPageStart({ data: [], has_more: false })).toBeUndefined();
  });

  it('given a log of several pages, when a stream from the start looks, then it sends every event once, in log order, a page per request', () => {
    const log = Array.from({ length: 120 }, (_, i) => event(`evt_${i}`, T + i * 1000));
    const { sent, pages } = look(log, followFromStart(), 50);
    expect(sent).toEqual(log.map((e) => e.id));
    expect(pages).toBe(3);
  });

  it('given a stream that caught up, when an event commits late behind the events it sent, then the next look sends it and nothing again', () => {
    const log = [event('evt_old', T - 60_000), event('evt_a', T - 5000), event('evt_b', T)];
    const caughtUp = look(log, followFromStart(), 50).state;
    // Appended before evt_b, so earlier in log order, but visible only now.
    const withLate = [log[0]!, log[1]!, event('evt_late', T - 2000), log[2]!];
    expect(look(withLate, caughtUp, 50).sent).toEqual(['evt_late']);
  });

  it('given a stream resumed after an event, when it looks, then it sends the unhandled events of the settle window before it again, and what follows', () => {
    const log = [event('evt_long_ago', T - 60_000), event('evt_just_before', T - 3000), event('evt_resumed', T), event('evt_after', T + 1000)];
    expect(look(log, followAfter(log[2]!), 50).sent).toEqual(['evt_just_before', 'evt_after']);
  });

  it('sends nothing handled, nor anything behind the settle window', () => {
    const state = followAfter(event('evt_seen', T));
    expect(stillToSend(state, event('evt_seen', T))).toBe(false);
    expect(stillToSend(state, event('evt_too_old', T - SETTLE_WINDOW_MS - 1))).toBe(false);
    expect(stillToSend(state, event('evt_in_window', T - SETTLE_WINDOW_MS))).toBe(true);
  });
});
