import { getEventListeners } from 'node:events';
import { CheckoutClient } from '../client';
import { CheckoutError, ConnectionError, ServerError, UnexpectedResponseError } from '../errors';

/*
 * The transport against a stubbed fetch: what the client accepts at
 * construction, what a 2xx answer must be, and that a long-lived signal
 * (the CLI's Ctrl-C) is left as it was found by requests, retries and streams.
 */

type Answer = { status?: number; body?: string; headers?: Record<string, string> } | ((init: RequestInit | undefined) => Promise<Response>);

function stubFetch(...answers: Answer[]) {
  let call = 0;
  return jest.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
    const answer = answers[Math.min(call++, answers.length - 1)];
    if (typeof answer === 'function') return answer(init);
    return new Response(answer.body ?? '{}', { status: answer.status ?? 200, headers: answer.headers });
  });
}

/** A fetch that answers only by failing when its signal fires, as fetch does. */
const hanging = (init: RequestInit | undefined) => new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));

const client = (options: Partial<ConstructorParameters<typeof CheckoutClient>[0]> = {}) => new CheckoutClient({ apiKey: 'pp_live_test_x', retry: { baseDelayMs: 0 }, ...options });

describe('the transport', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['maxRetries', { maxRetries: NaN }],
    ['maxRetries', { maxRetries: Infinity }],
    ['maxRetries', { maxRetries: -1 }],
    ['maxRetries', { maxRetries: 1.5 }],
    ['retry.baseDelayMs', { retry: { baseDelayMs: NaN } }],
    ['retry.baseDelayMs', { retry: { baseDelayMs: -5 } }],
    ['retry.maxDelayMs', { retry: { maxDelayMs: Infinity } }],
    ['retry.maxRetries', { retry: { maxRetries: NaN } }],
    ['timeoutMs', { timeoutMs: NaN }],
    ['timeoutMs', { timeoutMs: -1 }],
    ['timeoutMs', { timeoutMs: 2 ** 31 }],
    ['timeoutMs', { timeoutMs: '1000' as unknown as number }],
  ])('given %s that is not a usable number (%p), when the client is built, then it refuses with a TypeError naming it', (name, options) => {
    expect(() => client(options)).toThrow(TypeError);
    expect(() => client(options)).toThrow(new RegExp(`^${name.replace('.', '\\.')} must be`));
  });

  it.each([
    ['a line break', 'pp_live_test_abc\r\nX-Injected: 1'],
    ['a NUL', 'pp_live_test_abc\0'],
    ['a space', 'pp_live_test_abc def'],
    ['another prefix', 'sk_live_abc'],
  ])('given a key holding %s, when the client is built, then it refuses with a TypeError that does not repeat the key', (_what, apiKey) => {
    const fetch = stubFetch({ body: '[]' });
    expect(() => client({ apiKey })).toThrow(/^apiKey is not an API key/);
    expect(() => client({ apiKey })).not.toThrow(/abc/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('given a key read from a file, with its line break, when a request is sent, then it carries the key without it', async () => {
    const fetch = stubFetch({ body: '[]' });
    await client({ apiKey: 'pp_live_test_abc\n' }).payments.list({}).firstPage();
    expect(new Headers(fetch.mock.calls[0][1]?.headers).get('authorization')).toBe('Bearer pp_live_test_abc');
  });

  it('given zero retries, delays and timeout, when the client is built, then it accepts them; a per-request NaN is refused before any request', async () => {
    const fetch = stubFetch({ body: '[]' });
    expect(() => client({ maxRetries: 0, timeoutMs: 0, retry: { baseDelayMs: 0, maxDelayMs: 0 } })).not.toThrow();
    await expect(client().payments.list({}, { maxRetries: NaN }).firstPage()).rejects.toThrow(/^maxRetries must be/);
    await expect(client().payments.list({}, { timeoutMs: Infinity }).firstPage()).rejects.toThrow(/^timeoutMs must be/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('given a 2xx answer whose body is not JSON (a proxy page), when a resource is read, then it is an UnexpectedResponseError, not a string, and not retried', async () => {
    const fetch = stubFetch({ body: '<html>Sign in to the Wi-Fi</html>', headers: { 'x-request-id': 'req_1' } });
    const reading = client().checkoutSessions.retrieve('cs_1');
    await expect(reading).rejects.toThrow(UnexpectedResponseError);
    await expect(client().checkoutSessions.retrieve('cs_1')).rejects.toThrow(/GET \/v1\/checkout\/sessions\/cs_1 answered 200 with a body that is not JSON \(request req_1\)/);
    expect(fetch).toHaveBeenCalledTimes(2);
    stubFetch({ status: 503, body: 'Service Unavailable' });
    await expect(client({ maxRetries: 0 }).checkoutSessions.retrieve('cs_1')).rejects.toThrow(ServerError);
  });

  it('given one long-lived signal, when many requests are retried and many streams read with it, then it holds no more listeners than before, and AbortSignal.any never holds it', async () => {
    const signal = new AbortController().signal;
    const any = jest.spyOn(AbortSignal, 'any');
    for (let i = 0; i < 15; i++) {
      const fetch = stubFetch({ status: 503 }, { status: 503 }, { body: '[]' });
      await client().payments.list({}, { signal }).firstPage();
      expect(fetch).toHaveBeenCalledTimes(3);
      fetch.mockRestore();
    }
    for (let i = 0; i < 15; i++) {
      stubFetch({ body: `id: evt_${i}\ndata: {"id":"evt_${i}","type":"payment.confirmed","created_at":"2026-01-01T00:00:00Z","livemode":false,"data":{}}\n\n` });
      for await (const event of client().events.stream({}, { signal })) expect(event.id).toBe(`evt_${i}`);
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(any.mock.calls.flat(2)).not.toContain(signal);
  });

  it('given a request or a stream waiting for its answer, when the caller aborts, then it rejects with the caller’s reason; when the timeout passes, with a ConnectionError that says so', async () => {
    stubFetch(hanging);
    const controller = new AbortController();
    const waiting = client().payments.list({}, { signal: controller.signal }).firstPage();
    const streaming = client().events.stream({}, { signal: controller.signal }).next();
    controller.abort(new Error('Ctrl-C'));
    await expect(waiting).rejects.toThrow('Ctrl-C');
    await expect(streaming).rejects.toThrow('Ctrl-C');
    await expect(client({ timeoutMs: 20, maxRetries: 0 }).payments.list().firstPage()).rejects.toThrow(/no answer within 20 ms/);
    await expect(client({ timeoutMs: 20 }).events.stream().next()).rejects.toThrow(ConnectionError);
    await expect(client({ timeoutMs: 20 }).events.stream().next()).rejects.toThrow(CheckoutError);
  });

  it('given a caller aborting between retries, when the SDK waits to retry, then the wait ends at once with the caller’s reason', async () => {
    stubFetch({ status: 503 });
    const controller = new AbortController();
    const retrying = client({ retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } }).payments.list({}, { signal: controller.signal }).firstPage();
    setTimeout(() => controller.abort(new Error('Ctrl-C')), 20);
    await expect(retrying).rejects.toThrow('Ctrl-C');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
