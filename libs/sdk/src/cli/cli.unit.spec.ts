import { integerOption, listOption, metadataOption, parseArgs, UsageError } from './args';
import { findCommand } from './commands';
import { type FollowState, recordHandled, SETTLE_WINDOW_MS, unhandledEvents } from '../events/follow-state';
import { forwardingSecret } from './listen';

describe('CLI arguments', () => {
  it('splits positionals from --name value, --name=value and value-less flags', () => {
    const args = parseArgs(['events', 'list', '--type', 'payment.confirmed', '--limit=5', '--json', '--', '--literal']);
    expect(args.positionals).toEqual(['events', 'list', '--literal']);
    expect(Object.fromEntries(args.options)).toEqual({ type: 'payment.confirmed', limit: '5', json: true });
    expect(integerOption(args, 'limit')).toBe(5);
  });

  it('refuses an option without its value, and a non-numeric number', () => {
    expect(() => parseArgs(['trigger', 'payment.confirmed', '--amount'])).toThrow(UsageError);
    expect(() => parseArgs(['trigger', '--amount', '--json'])).toThrow(/--amount needs a value/);
    expect(() => integerOption(parseArgs(['--amount', '12.5']), 'amount')).toThrow(/whole number/);
  });

  it('reads metadata as key=value pairs or a JSON object, and lists as comma-separated', () => {
    expect(metadataOption(parseArgs(['--metadata', 'order=42,note=a=b']))).toEqual({ order: '42', note: 'a=b' });
    expect(metadataOption(parseArgs(['--metadata', '{"order":"42"}']))).toEqual({ order: '42' });
    expect(() => metadataOption(parseArgs(['--metadata', 'oops']))).toThrow(/key=value/);
    expect(listOption(parseArgs(['--events', 'payment.confirmed, payment.failed,']), 'events')).toEqual(['payment.confirmed', 'payment.failed']);
  });

  it('finds two-word commands before one-word ones', () => {
    expect(findCommand(['events', 'list'])?.name).toBe('events list');
    expect(findCommand(['trigger', 'payment.failed'])?.name).toBe('trigger');
    expect(findCommand(['events'])).toBeUndefined();
  });

  it('derives a forwarding secret that is stable per key and differs between keys', () => {
    expect(forwardingSecret('pp_live_test_a')).toBe(forwardingSecret('pp_live_test_a'));
    expect(forwardingSecret('pp_live_test_a')).not.toBe(forwardingSecret('pp_live_test_b'));
    expect(forwardingSecret('pp_live_test_a')).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});

describe('following the event log', () => {
  const event = (id: string, atMs: number) => ({ id, type: 'payment.confirmed', livemode: false, data: {}, created_at: new Date(atMs).toISOString() });
  const T = Date.UTC(2026, 10, 23, 18, 0, 0);

  it('remembers handled ids within the settle window, forgets older ones, and never moves its time back', () => {
    let state: FollowState = { since_ms: T, handled: { evt_a: T } };
    state = recordHandled(state, event('evt_b', T + 20_000));
    expect(state).toEqual({ since_ms: T + 20_000, handled: { evt_b: T + 20_000 } });
    state = recordHandled(state, event('evt_late', T + 15_000));
    expect(state).toEqual({ since_ms: T + 20_000, handled: { evt_b: T + 20_000, evt_late: T + 15_000 } });
  });

  it('reads back to the window edge and answers the unhandled events oldest first, late commits included', async () => {
    const state: FollowState = { since_ms: T, handled: { evt_seen: T, evt_seen_before: T - 1000 } };
    async function* log() {
      yield* [event('evt_new2', T + 2000), event('evt_new1', T + 1000), event('evt_seen', T), event('evt_late', T - 500), event('evt_seen_before', T - 1000)];
      yield* [event('evt_old', T - SETTLE_WINDOW_MS - 1), event('evt_never_read', T - SETTLE_WINDOW_MS - 2)];
    }
    expect((await unhandledEvents(log(), state, 10)).map((e) => e.id)).toEqual(['evt_late', 'evt_new1', 'evt_new2']);
    expect((await unhandledEvents(log(), state, 2)).map((e) => e.id)).toEqual(['evt_late', 'evt_new1']);
  });
});
