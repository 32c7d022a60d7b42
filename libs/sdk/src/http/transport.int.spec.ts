import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheckoutClient } from '../client';
import { ConnectionError, NotFoundError, ServerError, UnexpectedResponseError } from '../errors';
import { MAX_RESPONSE_BYTES } from './transport';

/*
 * The transport against a real HTTP server on this machine standing in for
 * the gateway, or for a proxy in front of it (its own error pages carry no
 * X-Request-Id): what fetch really does with redirects, long bodies and
 * dropped connections, which a stubbed fetch would only assume.
 */

type Answer = (res: ServerResponse, request: { method: string; headers: IncomingHttpHeaders }) => void;

/** Answers the n-th request with the n-th answer (the last one again after them), recording each request. */
class ScriptedServer {
  readonly requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders }> = [];
  private answers: Answer[] = [];
  private constructor(private readonly server: Server) {}

  static async start(port = 0): Promise<ScriptedServer> {
    const server = createServer();
    const scripted = new ScriptedServer(server);
    server.on('request', (req, res) => {
      req.resume();
      req.on('end', () => {
        const request = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers };
        scripted.requests.push(request);
        const answer = scripted.answers[Math.min(scripted.requests.length - 1, scripted.answers.length - 1)];
        answer(res, request);
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return scripted;
  }

  script(...answers: Answer[]): void {
    this.answers = answers;
    this.requests.length = 0;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The gateway's own answer: JSON, with X-Request-Id (the one sent, as the gateway echoes it). */
const gateway =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (res, request) =>
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': String(request.headers['x-request-id']), ...headers }).end(JSON.stringify(body));
/** A proxy's own error page: no X-Request-Id. */
const proxyPage =
  (status: number): Answer =>
  (res) =>
    res.writeHead(status, { 'content-type': 'text/html' }).end(`<html>${status}</html>`);
const dropped: Answer = (res) => res.socket?.destroy();

describe('the transport against a real HTTP server', () => {
  let server: ScriptedServer;
  let elsewhere: ScriptedServer;
  const client = (options: Partial<ConstructorParameters<typeof CheckoutClient>[0]> = {}) =>
    new CheckoutClient({ apiKey: 'pp_live_test_x', apiBase: server.url, retry: { baseDelayMs: 0 }, ...options });

  beforeAll(async () => {
    server = await ScriptedServer.start();
    elsewhere = await ScriptedServer.start();
  });
  afterAll(async () => {
    await server?.close();
    await elsewhere?.close();
  });
  beforeEach(() => elsewhere.script(gateway(200, {})));

  it('given a proxy’s 502 page without X-Request-Id, when the call fails, then the error carries the request id the SDK sent', async () => {
    server.script(proxyPage(502));
    const failed = await client({ maxRetries: 1 }).checkoutSessions.retrieve('cs_1').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ServerError);
    const sent = server.requests.map((request) => request.headers['x-request-id']);
    expect(sent).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), sent[0]]);
    expect((failed as ServerError).requestId).toBe(sent[0]);
    expect((failed as ServerError).message).toContain(`request ${sent[0]}`);
  });

  it('given connections dropped without an answer, when the call fails, then the ConnectionError carries the request id sent', async () => {
    server.script(dropped);
    const failed = await client({ maxRetries: 0 }).payments.list({}, { requestId: 'req-dropped' }).firstPage().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect((failed as ConnectionError).requestId).toBe('req-dropped');
  });

  it.each([
    ['a line break, which fetch cannot send', 'a\nb'],
    ['a space, which the gateway would swap for its own id', 'order 1001'],
  ])('given a requestId holding %s, when a POST is made, then it is a TypeError and the server sees no request', async (_what, requestId) => {
    server.script(gateway(201, {}));
    const refused = await client().refunds.create({ payment_id: 'txn_1' }, { requestId }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as TypeError).message).toMatch(/^requestId must be/);
    expect(server.requests).toHaveLength(0);
  });

  it.each([301, 302, 307, 308])('given a %i redirect elsewhere, when a POST is sent, then it is an UnexpectedResponseError naming the status, not followed and not retried', async (status) => {
    server.script((res) => res.writeHead(status, { location: `${elsewhere.url}/v1/refunds` }).end());
    const failed = await client().refunds.create({ payment_id: 'txn_1' }, { idempotencyKey: 'order-1', requestId: 'req-redirected' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(UnexpectedResponseError);
    expect((failed as UnexpectedResponseError).message).toMatch(new RegExp(`^POST /v1/refunds answered ${status}, a redirect, which the SDK does not follow`));
    expect(failed).toMatchObject({ idempotencyKey: 'order-1', requestId: 'req-redirected' });
    expect(server.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('given a redirect answering an event stream’s request, when it is opened, then it is an UnexpectedResponseError, not followed', async () => {
    server.script((res) => res.writeHead(302, { location: `${elsewhere.url}/v1/events/stream` }).end());
    await expect(client().events.stream().next()).rejects.toThrow(/^GET \/v1\/events\/stream answered 302, a redirect/);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it.each([
    ['a proxy’s HTML page', { 'content-type': 'text/html; charset=utf-8' }, '<html>Sign in to the Wi-Fi</html>'],
    ['JSON', { 'content-type': 'application/json' }, '[]'],
    ['no Content-Type', {}, 'id: evt_00000001\n\n'],
  ])('given a 200 answering an event stream’s request with %s, when it is opened, then it is an UnexpectedResponseError naming what came, not a stream without events', async (_what, headers, body) => {
    server.script((res) => res.writeHead(200, headers).end(body));
    const failed = await client().events.stream({}, { requestId: 'req-portal' }).next().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(UnexpectedResponseError);
    expect(failed).toMatchObject({ requestId: 'req-portal', message: expect.stringMatching(/^GET \/v1\/events\/stream answered 200 with .*, not an event stream \(text\/event-stream\) \(request req-portal\)$/) });
  });

  it('given the gateway’s own Content-Type with its charset, in any case, when the stream is opened, then its events are read', async () => {
    server.script((res) =>
      res.writeHead(200, { 'content-type': 'Text/Event-Stream; charset=utf-8' }).end('id: evt_00000001\ndata: {"id":"evt_00000001","type":"payment.confirmed","created_at":"2026-01-01T00:00:00Z","livemode":false,"data":{}}\n\n'),
    );
    const events: unknown[] = [];
    for await (const event of client().events.stream()) events.push(event);
    expect(events).toEqual([expect.objectContaining({ id: 'evt_00000001' })]);
  });

  it('given an event stream whose connection drops after its first event, when the next is read, then it is a ConnectionError carrying the gateway’s request id', async () => {
    server.script((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req-stream-gw' });
      res.write('id: evt_00000001\ndata: {"id":"evt_00000001","type":"payment.confirmed","created_at":"2026-01-01T00:00:00Z","livemode":false,"data":{}}\n\n', () => res.socket?.destroy());
    });
    const stream = client().events.stream();
    expect((await stream.next()).value).toMatchObject({ id: 'evt_00000001' });
    const failed = await stream.next().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect(failed).toMatchObject({ requestId: 'req-stream-gw', message: expect.stringMatching(/^GET \/v1\/events\/stream: the stream broke off: .*\(request req-stream-gw\)$/) });
    expect((failed as ConnectionError).cause).toBeDefined();
  });

  const longList = (bytes: number) => `[${'"x",'.repeat(Math.ceil(bytes / 4))}"x"]`;

  it.each([
    ['with its Content-Length', (res: ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)],
    ['in chunks, without a length', (res: ServerResponse, body: string) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let at = 0; at < body.length; at += 256 * 1024) res.write(body.slice(at, at + 256 * 1024));
      res.end();
    }],
  ])('given a body over MAX_RESPONSE_BYTES sent %s, when read, then it is an UnexpectedResponseError, not retried', async (_how, send) => {
    const body = longList(MAX_RESPONSE_BYTES + 1024);
    server.script((res) => send(res, body));
    const failed = await client().payments.list({}, { requestId: 'req-long' }).firstPage().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(UnexpectedResponseError);
    expect((failed as UnexpectedResponseError).message).toBe(`GET /v1/payments answered 200 with a body over ${MAX_RESPONSE_BYTES} bytes, more than any answer of the API (request req-long)`);
    expect(server.requests).toHaveLength(1);
  });

  it('given a long error page, when read, then it is an UnexpectedResponseError too; a body just under the limit is read whole', async () => {
    server.script((res) => res.writeHead(500, { 'content-type': 'text/html' }).end('x'.repeat(MAX_RESPONSE_BYTES + 1)));
    await expect(client({ maxRetries: 0 }).checkoutSessions.retrieve('cs_1')).rejects.toThrow(UnexpectedResponseError);
    const body = longList(MAX_RESPONSE_BYTES - 64 * 1024);
    server.script((res) => res.writeHead(200, { 'content-type': 'application/json', 'x-has-more': 'false' }).end(body));
    expect((await client().payments.list().firstPage()).data).toHaveLength(JSON.parse(body).length);
  });

  it('given a DELETE answered first by a proxy’s 502 or 503 without X-Request-Id, when the retry gets 404, then it is NotFoundError: the gateway never saw the first', async () => {
    const notFound = gateway(404, { error: 'Webhook endpoint not found' });
    for (const status of [502, 503]) {
      server.script(proxyPage(status), notFound);
      await expect(client().webhookEndpoints.delete('wh_typo')).rejects.toBeInstanceOf(NotFoundError);
      expect(server.requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE']);
    }
  });

  it('given a DELETE whose first attempt may have run (dropped, the gateway’s own 5xx, a proxy’s 504), when the retry gets 404, then it answers as deleted', async () => {
    const notFound = gateway(404, { error: 'Webhook endpoint not found' });
    for (const first of [dropped, gateway(503, { error: 'Service unavailable' }), proxyPage(504)]) {
      server.script(first, notFound);
      await expect(client().webhookEndpoints.delete('wh_1')).resolves.toEqual({ id: 'wh_1', deleted: true });
      expect(server.requests).toHaveLength(2);
    }
  });

  it('given events.resend, when it gets a 5xx or no answer, then it is retried with the same Idempotency-Key, like any POST', async () => {
    for (const failure of [gateway(500, { error: 'Internal error' }), proxyPage(502), dropped]) {
      server.script(failure, gateway(200, { event_id: 'evt_1', webhook_ids: ['wh_1'] }));
      await expect(client().events.resend('evt_1')).resolves.toEqual({ event_id: 'evt_1', webhook_ids: ['wh_1'] });
      expect(server.requests).toHaveLength(2);
      expect(new Set(server.requests.map((request) => request.headers['idempotency-key'])).size).toBe(1);
    }
  });

  it('given a DELETE whose first attempt found nothing listening (connection refused), when the retry finds no such endpoint, then it is NotFoundError: the request never left this machine', async () => {
    const port = await closedPort();
    let late: ScriptedServer | undefined;
    const realFetch = globalThis.fetch;
    // fetch as it is; once its first connection is refused, the gateway comes up on that port, not knowing the id.
    const fetch = jest.spyOn(globalThis, 'fetch').mockImplementation(async (...args) => {
      try {
        return await realFetch(...args);
      } catch (error) {
        if (!late) {
          late = await ScriptedServer.start(port);
          late.script(gateway(404, { error: 'Webhook endpoint not found' }));
        }
        throw error;
      }
    });
    try {
      const failed = await client({ apiBase: `http://127.0.0.1:${port}` }).webhookEndpoints.delete('wh_typo').catch((error: unknown) => error);
      expect(fetch.mock.calls).toHaveLength(2);
      expect(failed).toBeInstanceOf(NotFoundError);
      expect(late?.requests.map((request) => request.method)).toEqual(['DELETE']);
    } finally {
      fetch.mockRestore();
      await late?.close();
    }
  });
});

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
