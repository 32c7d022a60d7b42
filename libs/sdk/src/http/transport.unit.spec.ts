import { getEventListeners } from 'node:events';
import { inspect } from 'node:util';
import { CheckoutClient } from '../client';
import { AbortedError, CheckoutError, ConnectionError, InvalidRequestError, NotFoundError, ServerError, UnexpectedResponseError } from '../errors';

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

/** The gateway's event stream's Content-Type. */
const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };

/** A fetch that answers only by failing when its signal fires, as fetch does. */
const hanging = (init: RequestInit | undefined) => new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));

const client = (options: Partial<ConstructorParameters<typeof CheckoutClient>[0]> = {}) => new CheckoutClient({ apiKey: 'pp_live_test_x', retry: { baseDelayMs: 0 }, ...options });

describe('the transport', () => {
  afterEach(() => jest.restoreAllMocks());

  it('given a client logged, inspected or serialised (an error reporter capturing it), then the secret key does not show', () => {
    const apiKey = 'pp_live_test_do_not_log_me';
    const checkout = new CheckoutClient({ apiKey });
    expect(JSON.stringify(checkout)).not.toContain(apiKey);
    expect(inspect(checkout, { depth: Infinity, showHidden: true })).not.toContain(apiKey);
  });

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
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: 1.5 }],
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

  it('given zero retries and delays and a 1 ms timeout, when the client is built, then it accepts them; a per-request NaN, 0 or fraction is refused before any request', async () => {
    const fetch = stubFetch({ body: '[]' });
    expect(() => client({ maxRetries: 0, timeoutMs: 1, retry: { baseDelayMs: 0, maxDelayMs: 0 } })).not.toThrow();
    await expect(client().payments.list({}, { maxRetries: NaN }).firstPage()).rejects.toThrow(/^maxRetries must be/);
    await expect(client().payments.list({}, { timeoutMs: Infinity }).firstPage()).rejects.toThrow(/^timeoutMs must be/);
    await expect(client().payments.list({}, { timeoutMs: 0 }).firstPage()).rejects.toThrow(/^timeoutMs must be a whole number of milliseconds from 1/);
    await expect(client().events.stream({}, { timeoutMs: 2.5 }).next()).rejects.toThrow(/^timeoutMs must be a whole number/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['too long', 'k'.repeat(256)],
    ['holding a line break', 'key\r\nX-Injected: 1'],
  ])('given an idempotencyKey %s, when a POST is made, then it is a TypeError before any request', async (_what, idempotencyKey) => {
    const fetch = stubFetch({ status: 201 });
    await expect(client().events.resend('evt_1', {}, { idempotencyKey })).rejects.toThrow(/^idempotencyKey must be 1 to 255 printable ASCII characters/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['a line break', 'a\nb'],
    ['a space', 'order 1001'],
    ['129 characters', 'r'.repeat(129)],
    ['a leading dot', '.r'],
  ])('given a requestId holding %s, when a request or a stream is made, then it is a TypeError before any request', async (_what, requestId) => {
    const fetch = stubFetch({ body: '[]' });
    await expect(client().payments.list({}, { requestId }).firstPage()).rejects.toThrow(/^requestId must be 1 to 128 ASCII letters, digits and \. _ : -/);
    await expect(client().events.resend('evt_1', {}, { requestId })).rejects.toBeInstanceOf(TypeError);
    await expect(client().events.stream({}, { requestId }).next()).rejects.toBeInstanceOf(TypeError);
    expect(fetch).not.toHaveBeenCalled();
    await expect(client().payments.list({}, { requestId: `r${'._:-'.repeat(31)}abc` }).firstPage()).resolves.toMatchObject({ data: [] });
  });

  it('given a POST that fails after its retries, when no key was given, then the error carries the key the SDK sent on every attempt; a given key is carried as it is', async () => {
    const fetch = stubFetch({ status: 503, body: '{"error":"Service unavailable"}' });
    const failed = await client({ maxRetries: 1 }).refunds.create({ payment_id: 'txn_1' }).catch((error: unknown) => error);
    const sent = fetch.mock.calls.map(([, init]) => new Headers(init?.headers).get('idempotency-key'));
    expect(failed).toBeInstanceOf(ServerError);
    expect(sent).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), sent[0]]);
    expect((failed as ServerError).idempotencyKey).toBe(sent[0]);
    await expect(client({ maxRetries: 0 }).events.resend('evt_1', {}, { idempotencyKey: 'order-1001' })).rejects.toMatchObject({ idempotencyKey: 'order-1001' });

    fetch.mockRestore();
    const unreachable = jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'));
    const lost = await client({ maxRetries: 1 }).refunds.create({ payment_id: 'txn_1' }).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(ConnectionError);
    expect((lost as ConnectionError).idempotencyKey).toBe(new Headers(unreachable.mock.calls[0][1]?.headers).get('idempotency-key'));
    const read = (await client({ maxRetries: 0 }).payments.list().firstPage().catch((error: unknown) => error)) as ConnectionError;
    expect(read).toBeInstanceOf(ConnectionError);
    expect(read.idempotencyKey).toBeUndefined();
  });

  it('given events.resend, which the webhooks service records with its Idempotency-Key, when it gets a 5xx or no answer, then it is retried with the same key, like any POST', async () => {
    const resent = { status: 200, body: '{"event_id":"evt_1","webhook_ids":["wh_1"]}', headers: { 'x-request-id': 'req_3' } };
    const failing = stubFetch({ status: 503, body: '{"error":"Service unavailable"}', headers: { 'x-request-id': 'req_1' } }, async () => Promise.reject(new TypeError('fetch failed')), resent);
    await expect(client().events.resend('evt_1', {}, { idempotencyKey: 'resend-1' })).resolves.toEqual({ event_id: 'evt_1', webhook_ids: ['wh_1'] });
    expect(failing).toHaveBeenCalledTimes(3);
    expect(failing.mock.calls.map(([, init]) => new Headers(init?.headers).get('idempotency-key'))).toEqual(['resend-1', 'resend-1', 'resend-1']);
  });

  it('given an answer without X-Request-Id (a proxy’s 502) or no answer at all, when the error is thrown, then it carries the request id the SDK sent', async () => {
    stubFetch({ status: 502, body: '<html>Bad gateway</html>' });
    const proxied = await client({ maxRetries: 0 }).checkoutSessions.retrieve('cs_1', { requestId: 'req_sent' }).catch((error: unknown) => error);
    expect(proxied).toBeInstanceOf(ServerError);
    expect(proxied).toMatchObject({ requestId: 'req_sent', message: 'GET /v1/checkout/sessions/cs_1 answered 502 (status 502, request req_sent)' });

    jest.restoreAllMocks();
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'));
    await expect(client({ maxRetries: 0 }).payments.list({}, { requestId: 'req_lost' }).firstPage()).rejects.toMatchObject({ name: 'ConnectionError', requestId: 'req_lost' });
    await expect(client().events.stream({}, { requestId: 'req_stream' }).next()).rejects.toMatchObject({ name: 'ConnectionError', requestId: 'req_stream' });

    jest.restoreAllMocks();
    stubFetch({ body: '<html>Sign in to the Wi-Fi</html>' });
    await expect(client().checkoutSessions.retrieve('cs_1', { requestId: 'req_wifi' })).rejects.toMatchObject({ name: 'UnexpectedResponseError', requestId: 'req_wifi' });
    stubFetch({ body: '<html>Sign in to the Wi-Fi</html>', headers: { 'x-request-id': 'req_gateway' } });
    await expect(client().checkoutSessions.retrieve('cs_1', { requestId: 'req_wifi' })).rejects.toMatchObject({ requestId: 'req_gateway' });
  });

  it('given a DELETE whose first attempt got a proxy’s 502 without X-Request-Id, when the retry answers 404, then NotFoundError: the gateway never saw the first; after the gateway’s own 503, deleted', async () => {
    const notFound = { status: 404, body: '{"error":"Webhook endpoint not found"}', headers: { 'x-request-id': 'req_2' } };
    const fetch = stubFetch({ status: 502, body: '<html>Bad gateway</html>' }, notFound);
    await expect(client().webhookEndpoints.delete('wh_typo')).rejects.toBeInstanceOf(NotFoundError);
    expect(fetch).toHaveBeenCalledTimes(2);
    stubFetch({ status: 503, body: '{"error":"Service unavailable"}', headers: { 'x-request-id': 'req_1' } }, notFound);
    await expect(client().webhookEndpoints.delete('wh_1')).resolves.toEqual({ id: 'wh_1', deleted: true });
  });

  it('given an error answer, when it is thrown, then apiMessage keeps the API’s words while message adds the status and request', async () => {
    stubFetch({ status: 400, body: '{"error":"Validation failed: amount must be positive"}', headers: { 'x-request-id': 'req_1' } });
    const refused = await client().checkoutSessions.retrieve('cs_1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(refused).toMatchObject({ apiMessage: 'Validation failed: amount must be positive', message: 'Validation failed: amount must be positive (status 400, request req_1)' });
    stubFetch({ status: 502, body: '<html>Bad gateway</html>' });
    await expect(client({ maxRetries: 0 }).checkoutSessions.retrieve('cs_1')).rejects.toMatchObject({ apiMessage: 'GET /v1/checkout/sessions/cs_1 answered 502' });
  });

  it('given a DELETE whose first attempt got no answer, when the retry finds the endpoint gone, then it resolves as deleted; a first attempt’s 404 is still NotFoundError', async () => {
    const answerLost = async () => Promise.reject(new TypeError('fetch failed'));
    const fetch = stubFetch(answerLost, { status: 404, body: '{"error":"Webhook endpoint not found"}' });
    await expect(client().webhookEndpoints.delete('wh_1')).resolves.toEqual({ id: 'wh_1', deleted: true });
    expect(fetch).toHaveBeenCalledTimes(2);
    stubFetch({ status: 404, body: '{"error":"Webhook endpoint not found"}' });
    await expect(client().webhookEndpoints.delete('wh_1')).rejects.toBeInstanceOf(NotFoundError);
  });

  /** fetch's error when the connection could not be made, as undici reports it: the code on its cause. */
  const unconnected = (cause: Error, code: string) => async () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(cause, { code }) }));

  it.each([
    ['was refused (nothing listens)', new Error('connect ECONNREFUSED 127.0.0.1:3000'), 'ECONNREFUSED'],
    ['was refused at every address tried', new AggregateError([new Error('connect ECONNREFUSED ::1:3000')]), 'ECONNREFUSED'],
    ['found no address for the host', new Error('getaddrinfo ENOTFOUND gateway.example'), 'ENOTFOUND'],
    ['got no DNS answer', new Error('getaddrinfo EAI_AGAIN gateway.example'), 'EAI_AGAIN'],
    ['timed out connecting', new Error('Connect Timeout Error'), 'UND_ERR_CONNECT_TIMEOUT'],
    ['refused a self-signed certificate', new Error('self-signed certificate'), 'DEPTH_ZERO_SELF_SIGNED_CERT'],
    ['refused a certificate for another name', new Error("Hostname/IP does not match certificate's altnames"), 'ERR_TLS_CERT_ALTNAME_INVALID'],
  ])('given a DELETE whose first connection %s, when the retry answers 404, then NotFoundError: the request never left this machine', async (_what, cause, code) => {
    const fetch = stubFetch(unconnected(cause, code), { status: 404, body: '{"error":"Webhook endpoint not found"}', headers: { 'x-request-id': 'req_2' } });
    await expect(client().webhookEndpoints.delete('wh_typo')).rejects.toBeInstanceOf(NotFoundError);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['a reset', new Error('read ECONNRESET'), 'ECONNRESET'],
    ['the other side closing it', new Error('other side closed'), 'UND_ERR_SOCKET'],
    ['a code the SDK does not know', new Error('something new'), 'E_SOMETHING_NEW'],
  ])('given a DELETE whose first attempt failed with %s, which may come after the request was sent, when the retry answers 404, then it resolves as deleted', async (_what, cause, code) => {
    stubFetch(unconnected(cause, code), { status: 404, body: '{"error":"Webhook endpoint not found"}' });
    await expect(client().webhookEndpoints.delete('wh_1')).resolves.toEqual({ id: 'wh_1', deleted: true });
  });

  it('given a DELETE refused with 429 before any work, when the retry answers 404, then NotFoundError: the id named nothing', async () => {
    const fetch = stubFetch({ status: 429, body: '{"error":"Rate limit exceeded"}', headers: { 'retry-after': '0' } }, { status: 404, body: '{"error":"Webhook endpoint not found"}' });
    await expect(client().webhookEndpoints.delete('wh_typo')).rejects.toBeInstanceOf(NotFoundError);
    expect(fetch).toHaveBeenCalledTimes(2);
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

  it('given a 2xx answer with an empty body (a proxy’s bare 200 or 201), when a resource is created or read, then it is an UnexpectedResponseError carrying the key sent, not undefined, and not retried', async () => {
    const fetch = stubFetch({ status: 201, body: '', headers: { 'x-request-id': 'req_1' } });
    const created = await client().refunds.create({ payment_id: 'txn_1' }, { idempotencyKey: 'refund-1' }).catch((error: unknown) => error);
    expect(created).toBeInstanceOf(UnexpectedResponseError);
    expect(created).toMatchObject({ idempotencyKey: 'refund-1', requestId: 'req_1', message: 'POST /v1/refunds answered 201 with an empty body, where the API answers JSON (request req_1)' });
    expect(fetch).toHaveBeenCalledTimes(1);
    stubFetch({ status: 200, body: '' });
    await expect(client().checkoutSessions.retrieve('cs_1')).rejects.toThrow(UnexpectedResponseError);
    await expect(client().payments.list().firstPage()).rejects.toThrow(/^GET \/v1\/payments answered 200 with an empty body/);
  });

  it('given a 204, which says there is no content on purpose, when a call gets it, then it resolves without a body', async () => {
    stubFetch(async () => new Response(null, { status: 204 }));
    await expect(client().webhookEndpoints.delete('wh_1')).resolves.toBeUndefined();
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
      stubFetch({ body: `id: evt_${i}\ndata: {"id":"evt_${i}","type":"payment.confirmed","created_at":"2026-01-01T00:00:00Z","livemode":false,"data":{}}\n\n`, headers: SSE });
      for await (const event of client().events.stream({}, { signal })) expect(event.id).toBe(`evt_${i}`);
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(any.mock.calls.flat(2)).not.toContain(signal);
  });

  it('given a request or a stream waiting for its answer, when the caller aborts, then it rejects with an AbortedError caused by the caller’s reason; when the timeout passes, with a ConnectionError that says so', async () => {
    stubFetch(hanging);
    const controller = new AbortController();
    const waiting = client().payments.list({}, { signal: controller.signal, requestId: 'req_list' }).firstPage();
    const streaming = client().events.stream({}, { signal: controller.signal, requestId: 'req_stream' }).next();
    const reason = new Error('Ctrl-C');
    controller.abort(reason);
    await expect(waiting).rejects.toMatchObject({ name: 'AbortedError', cause: reason, requestId: 'req_list', message: "GET /v1/payments: stopped by the caller's signal (Ctrl-C) (request req_list)" });
    await expect(streaming).rejects.toMatchObject({ name: 'AbortedError', cause: reason, requestId: 'req_stream' });
    await expect(client({ timeoutMs: 20, maxRetries: 0 }).payments.list().firstPage()).rejects.toThrow(/no answer within 20 ms/);
    await expect(client({ timeoutMs: 20 }).events.stream().next()).rejects.toThrow(ConnectionError);
    await expect(client({ timeoutMs: 20 }).events.stream().next()).rejects.toThrow(CheckoutError);

    // Aborted while the stream's body is read, after its headers came.
    stubFetch(async (init) => new Response(new ReadableStream({ start: (body) => init?.signal?.addEventListener('abort', () => body.error(init.signal?.reason)) }), { headers: SSE }));
    const reader = new AbortController();
    const reading = client().events.stream({}, { signal: reader.signal, requestId: 'req_reading' }).next();
    setTimeout(() => reader.abort(reason), 10);
    await expect(reading).rejects.toMatchObject({ name: 'AbortedError', cause: reason, requestId: 'req_reading' });
  });

  it('given an event stream whose connection fails after its first event, when the next is read, then it is a ConnectionError with the stream’s request id and fetch’s error as its cause', async () => {
    const broken = new TypeError('terminated', { cause: new Error('other side closed') });
    const event = 'id: evt_00000001\ndata: {"id":"evt_00000001","type":"payment.confirmed","created_at":"2026-01-01T00:00:00Z","livemode":false,"data":{}}\n\n';
    stubFetch(async () => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => {
          if (sent) return controller.error(broken);
          sent = true;
          controller.enqueue(new TextEncoder().encode(event));
        },
      });
      return new Response(body, { headers: { ...SSE, 'x-request-id': 'req_gateway' } });
    });
    const stream = client().events.stream({}, { requestId: 'req_sent' });
    expect((await stream.next()).value).toMatchObject({ id: 'evt_00000001' });
    const failed = await stream.next().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect(failed).toBeInstanceOf(CheckoutError);
    expect(failed).toMatchObject({ requestId: 'req_gateway', cause: broken, message: 'GET /v1/events/stream: the stream broke off: terminated (other side closed) (request req_gateway)' });
  });

  it('given a caller aborting a POST between retries, when the SDK waits to retry, then the wait ends at once with an AbortedError carrying the key it sent', async () => {
    const fetch = stubFetch({ status: 503 });
    const controller = new AbortController();
    const retrying = client({ retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } }).refunds.create({ payment_id: 'txn_1' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('Ctrl-C')), 20);
    const stopped = await retrying.catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(AbortedError);
    expect(stopped).toMatchObject({ cause: new Error('Ctrl-C'), idempotencyKey: new Headers(fetch.mock.calls[0][1]?.headers).get('idempotency-key') });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('given a POST with no answer yet, when the caller’s signal times it out, then the error is an AbortedError (a CheckoutError) carrying the idempotency key and request id it sent', async () => {
    const fetch = stubFetch(hanging);
    const stopped = await client().checkoutSessions.create(
      { amount: 2500, currency: 'cad', reference: 'order-1', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cancel' },
      { signal: AbortSignal.timeout(20) },
    ).catch((error: unknown) => error);
    const sent = new Headers(fetch.mock.calls[0][1]?.headers);
    expect(stopped).toBeInstanceOf(AbortedError);
    expect(stopped).toBeInstanceOf(CheckoutError);
    expect(sent.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(stopped).toMatchObject({ idempotencyKey: sent.get('idempotency-key'), requestId: sent.get('x-request-id'), cause: expect.objectContaining({ name: 'TimeoutError' }) });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
