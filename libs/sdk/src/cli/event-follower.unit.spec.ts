import { getEventListeners } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckoutClient } from '../client';
import { ConnectionError, UnexpectedResponseError } from '../errors';
import { STREAM_IDLE_TIMEOUT_MS } from '../http/transport';
import { type FollowOptions, followEvents, reconnectWait } from './event-follower';
import { listen } from './listen';

/*
 * The follower and `listen` against a stubbed fetch: the gateway's stream
 * is whatever text the test gives, the merchant's receiver answers 200.
 */

/** A payment.confirmed as the stream sends it: its data carries the reference and amount every merchant event has (listen forwards it). */
const event = (id: string) => `id: ${id}\ndata: {"id":"${id}","type":"payment.confirmed","created_at":"2026-01-01T00:00:00Z","livemode":false,"data":{"reference":"order-1","amount":2500}}\n\n`;
const client = () => new CheckoutClient({ apiKey: 'pp_live_test_x' });
/** The gateway's event stream's Content-Type. */
const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };

/** fetch answering every stream connection with `sse`; `onFetch` sees each call first. */
function stubStream(sse: string, onFetch: (url: string) => void = () => undefined) {
  return jest.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
    onFetch(String(url));
    return new Response(String(url).includes('/v1/events/stream') ? sse : '', { headers: SSE });
  });
}

/** A stream body that sends `text`, then nothing, as a dead connection does; aborting the request fails the read, as fetch does. */
function silentAfter(text: string, signal: AbortSignal | null | undefined) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      signal?.addEventListener('abort', () => controller.error(signal.reason));
    },
  });
}

describe('following the event stream', () => {
  let dir: string;
  const controller = { current: new AbortController() };
  const follow = (overrides: Partial<FollowOptions>) =>
    followEvents(client(), { statePath: join(dir, 'state.json'), since: 'start', intervalMs: 1, signal: controller.current.signal, handle: async () => true, onError: () => undefined, ...overrides });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-follow-'));
    controller.current = new AbortController();
  });
  afterEach(() => {
    controller.current.abort();
    jest.useRealTimers();
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given a stream that ends on every connection, when the follower reconnects many times with one long-lived signal, then the signal holds no more than the open connection’s listener', async () => {
    const { signal } = controller.current;
    const listeners: number[] = [];
    stubStream(': keep-alive\n\n', () => {
      listeners.push(getEventListeners(signal, 'abort').length);
      if (listeners.length === 15) controller.current.abort();
    });
    await follow({});
    expect(listeners).toHaveLength(15);
    expect(Math.max(...listeners)).toBeLessThanOrEqual(1);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('given a message that is not an event, sent again on every connection, when followed, then each failure is an UnexpectedResponseError and the reconnects back off', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    let connections = 0;
    stubStream(`${event('evt_1')}id: evt_2\ndata: {oops\n\n`, () => connections++);
    const errors: unknown[] = [];
    const handled: string[] = [];
    const following = follow({ intervalMs: 10, onError: (error) => errors.push(error), handle: async (e) => (handled.push(e.id), true) });
    await jest.advanceTimersByTimeAsync(10_000);
    // At a 10 ms interval that would be about a thousand connections; backing off from 250 ms, six.
    expect(connections).toBeGreaterThanOrEqual(5);
    expect(connections).toBeLessThanOrEqual(7);
    expect(errors).toHaveLength(connections);
    expect(errors.every((error) => error instanceof UnexpectedResponseError)).toBe(true);
    expect(handled).toEqual(['evt_1']);
    controller.current.abort();
    await following;
  });

  it('given a 200 page that is not an event stream (a proxy’s, a captive portal’s) on every connection, when followed, then each is reported as an UnexpectedResponseError and the reconnects back off', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    let connections = 0;
    jest.spyOn(globalThis, 'fetch').mockImplementation(async () => (connections++, new Response('<html>Sign in to the Wi-Fi</html>', { headers: { 'content-type': 'text/html' } })));
    const errors: unknown[] = [];
    const following = follow({ intervalMs: 10, onError: (error) => errors.push(error) });
    await jest.advanceTimersByTimeAsync(10_000);
    // Read as a stream, the page holds no event and ends: at a 10 ms interval, about a thousand silent connections.
    expect(connections).toBeGreaterThanOrEqual(5);
    expect(connections).toBeLessThanOrEqual(7);
    expect(errors).toHaveLength(connections);
    expect(errors.every((error) => error instanceof UnexpectedResponseError)).toBe(true);
    controller.current.abort();
    await following;
  });

  it('given a stream that goes silent, when the idle limit passes, then the follower reports a ConnectionError and connects again after the last event', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    const connections: Array<string | null> = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
      connections.push(new Headers(init?.headers).get('last-event-id'));
      return new Response(silentAfter(connections.length === 1 ? event('evt_1') : '', init?.signal), { headers: SSE });
    });
    const errors: unknown[] = [];
    const following = follow({ intervalMs: 10, onError: (error) => errors.push(error) });
    await jest.advanceTimersByTimeAsync(STREAM_IDLE_TIMEOUT_MS - 1000);
    expect(connections).toEqual([null]);
    await jest.advanceTimersByTimeAsync(2000);
    expect(errors).toEqual([expect.any(ConnectionError)]);
    expect((errors[0] as Error).message).toMatch(/^GET \/v1\/events\/stream: the stream sent nothing for 45000 ms/);
    expect(connections).toEqual([null, 'evt_1']);
    controller.current.abort();
    await following;
  });

  it('given a handler slower than the idle limit, when it handles an event, then the stream is not taken for silent', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => new Response(silentAfter(event('evt_1') + event('evt_2'), init?.signal), { headers: SSE }));
    const errors: unknown[] = [];
    const handled: string[] = [];
    const slowly = (e: { id: string }) =>
      new Promise<boolean>((resolve) =>
        setTimeout(() => {
          handled.push(e.id);
          resolve(true);
        }, STREAM_IDLE_TIMEOUT_MS + 5000),
      );
    const following = follow({ onError: (error) => errors.push(error), handle: slowly });
    await jest.advanceTimersByTimeAsync(2 * (STREAM_IDLE_TIMEOUT_MS + 5000));
    expect(handled).toEqual(['evt_1', 'evt_2']);
    expect(errors).toEqual([]);
    controller.current.abort();
    await following;
  });

  it('given a handler that leaves every event (a receiver that is down), when followed, then the reconnects back off instead of coming at the interval', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    let connections = 0;
    stubStream(event('evt_1'), () => connections++);
    const following = follow({ intervalMs: 10, handle: async () => false });
    await jest.advanceTimersByTimeAsync(10_000);
    // At a 10 ms interval that would be about a thousand connections; backing off from 250 ms, six.
    expect(connections).toBeGreaterThanOrEqual(5);
    expect(connections).toBeLessThanOrEqual(7);
    controller.current.abort();
    await following;
  });

  it.each([
    [404, 'No such event', /No such event \(status 404, request .*\): .*run again with --since start/],
    [400, 'Validation failed: since', /Validation failed: since \(status 400, request .*\): .*run again with --since start/],
    [401, 'Invalid API key', /Invalid API key \(status 401, request .*\): the key was refused; run `login`/],
    [403, 'Insufficient scope: events.read required', /Insufficient scope: events.read required \(status 403, request .*\): the key may not read events/],
  ])('given the gateway answering %i on connecting, when followed, then it stops at once with what to do instead of retrying for ever', async (status, error, message) => {
    let connections = 0;
    jest.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      // A second connection is the bug: end the test there instead of letting it retry for ever.
      if (++connections > 1) controller.current.abort();
      return new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });
    });
    await expect(follow({})).rejects.toThrow(message);
    expect(connections).toBe(1);
  });

  it.each([
    [429, 'in seconds', 'Rate limit exceeded', () => '30'],
    [503, 'as a date', 'Service unavailable', () => new Date(Date.now() + 31_000).toUTCString()],
  ])('given the gateway refusing the stream with %i and Retry-After %s, when followed, then it connects again no sooner than asked', async (status, _how, error, retryAfter) => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    const connections: number[] = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      connections.push(Date.now());
      return new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json', 'retry-after': retryAfter() } });
    });
    const errors: unknown[] = [];
    const following = follow({ intervalMs: 10, onError: (failure) => errors.push(failure) });
    await jest.advanceTimersByTimeAsync(95_000);
    // Backing off from 250 ms without reading it: nine refused connections, each counted against the key's budget.
    expect(connections).toHaveLength(4);
    expect(Math.min(...connections.slice(1).map((at, i) => at - connections[i]))).toBeGreaterThanOrEqual(30_000);
    expect(errors).toHaveLength(4);
    controller.current.abort();
    await following;
  });

  it('waits the interval after a stream that ended, and doubles the wait with each failure in a row, up to a minute', () => {
    expect([0, 1, 2, 3].map((failures) => reconnectWait(1000, failures))).toEqual([1000, 1000, 2000, 4000]);
    expect([0, 1, 2].map((failures) => reconnectWait(0, failures))).toEqual([0, 250, 500]);
    expect(reconnectWait(1000, 50)).toBe(60_000);
    expect(reconnectWait(120_000, 3)).toBe(120_000);
  });

  it('given a saved place, when an event is handled, then the state file is replaced whole (a new file renamed over it), never rewritten in place', async () => {
    const path = join(dir, 'state.json');
    writeFileSync(path, JSON.stringify({ since_ms: 0, handled: {} }), { mode: 0o600 });
    const before = statSync(path).ino;
    stubStream(event('evt_1'));
    await follow({ since: undefined, handle: async () => (controller.current.abort(), true) });
    expect(statSync(path).ino).not.toBe(before);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).handled).toHaveProperty('evt_1');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('given listen forwarding events with one long-lived signal, when each is forwarded, then nothing is left on the signal per event', async () => {
    const { signal } = controller.current;
    const any = jest.spyOn(AbortSignal, 'any');
    const forwarded: number[] = [];
    stubStream(event('evt_1') + event('evt_2') + event('evt_3'), (url) => {
      if (!url.startsWith('http://127.0.0.1:9/')) return;
      forwarded.push(getEventListeners(signal, 'abort').length);
      if (forwarded.length === 3) controller.current.abort();
    });
    const output = { json: true, out: () => undefined, progress: () => undefined };
    await listen(client(), { apiKey: 'pp_live_test_x', forwardTo: 'http://127.0.0.1:9/hooks', since: 'start', statePath: join(dir, 'listen.json'), intervalMs: 1, signal, output });
    // During each forward: the open stream's listener and the forward's own, the same for every event.
    expect(forwarded).toEqual([2, 2, 2]);
    expect(any.mock.calls.flat(2)).not.toContain(signal);
  });

  it('given a streamed event without an amount (which no merchant event lacks), when listen meets it, then it reports it not forwarded and goes on with the next', async () => {
    const broken = { id: 'evt_1', type: 'payment.confirmed', created_at: '2026-01-01T00:00:00Z', livemode: false, data: { reference: 'r', status: 'CONFIRMED' } };
    const forwarded: string[] = [];
    const lines: string[] = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
      if (!String(url).includes('/v1/events/stream')) {
        forwarded.push((JSON.parse(String(init?.body)) as { id: string }).id);
        controller.current.abort();
        return new Response('');
      }
      return new Response(`id: evt_1\ndata: ${JSON.stringify(broken)}\n\n${event('evt_2')}`, { headers: SSE });
    });
    const output = { json: true, out: (line: string) => void lines.push(line), progress: () => undefined };
    await listen(client(), { apiKey: 'pp_live_test_x', forwardTo: 'http://127.0.0.1:9/hooks', since: 'start', statePath: join(dir, 'listen.json'), intervalMs: 1, signal: controller.current.signal, output });
    expect(forwarded).toEqual(['evt_2']);
    expect(JSON.parse(lines[0])).toEqual({ event_id: 'evt_1', type: 'payment.confirmed', status: null, error: expect.stringMatching(/has no amount/), skipped: true });
  });

  it('given a streamed event with a null session_id and an internal field, when listen forwards it, then the body is the one deliveries carry', async () => {
    const streamed = { id: 'evt_1', type: 'payment.pending_review', created_at: '2026-01-01T00:00:00Z', livemode: false, data: { reference: 'r', amount: 5, status: 'REQUIRES_MANUAL_REVIEW', metadata: null, session_id: null, payment_id: 'tx_1', review_reasons: ['amount'] } };
    const bodies: unknown[] = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
      if (!String(url).includes('/v1/events/stream')) {
        bodies.push(JSON.parse(String(init?.body)));
        controller.current.abort();
        return new Response('');
      }
      return new Response(`id: evt_1\ndata: ${JSON.stringify(streamed)}\n\n`, { headers: SSE });
    });
    const output = { json: true, out: () => undefined, progress: () => undefined };
    await listen(client(), { apiKey: 'pp_live_test_x', forwardTo: 'http://127.0.0.1:9/hooks', since: 'start', statePath: join(dir, 'listen.json'), intervalMs: 1, signal: controller.current.signal, output });
    expect(bodies).toEqual([
      { id: 'evt_1', type: 'payment.pending_review', created_at: '2026-01-01T00:00:00Z', livemode: false, data: { reference: 'r', amount: 5, status: 'REQUIRES_MANUAL_REVIEW', metadata: null, payment_id: 'tx_1' } },
    ]);
  });
});
