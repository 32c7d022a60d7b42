import { connect } from 'node:net';
import type { ServiceName } from '@pp/contracts';
import { TestStack } from '@pp/testing';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';

/*
 * Malformed requests as an outsider sends them, over a raw socket so nothing
 * normalises them on the way: every HTTP app answers each with exactly
 * `{ "error": string }`, a JSON content type and an X-Request-Id, whether the
 * refusal comes from Node's parser, Fastify's router, a body parser or Nest.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` byte for byte and reads the answer until the server closes or the body is complete. */
function raw(url: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Written, not ended: the server closes after its answer (Connection: close).
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const body = rest.join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: headers['transfer-encoding'] === 'chunked' ? dechunk(body) : body });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
  });
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const end = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, end), 16);
    if (!size) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}

/** The body as JSON, or as text when it is not JSON (so a failure shows what came back). */
function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

const request = (method: string, path: string, headers: Record<string, string> = {}, body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
  Object.entries({ ...headers, ...(body || method === 'POST' ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  `\r\n${body}`;

/** Short, so that a request never finished is answered within the test (30 s by default). */
const REQUEST_TIMEOUT_MS = 1000;

describe('error bodies of the HTTP apps', () => {
  let stack: TestStack;
  let merchant: ProvisionedMerchantView;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'checkout', 'dashboard'],
      label: 'errorshape',
      env: { HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
    });
    merchant = await new GatewayClient(stack).createMerchant();
  });
  afterAll(() => stack?.stop());

  const expectJsonError = (answer: RawAnswer, status: number, error: string | RegExp) => {
    expect({ status: answer.status, body: parsed(answer.body), headers: answer.headers }).toEqual({
      headers: expect.anything(),
      status,
      body: { error: typeof error === 'string' ? error : expect.stringMatching(error) },
    });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-request-id']).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/);
  };

  const auth = () => ({ Authorization: `Bearer ${merchant.keys.test_secret}` });
  const json = { 'Content-Type': 'application/json' };

  describe('gateway', () => {
    it.each<[string, () => string, number, string | RegExp]>([
      ['bad percent-encoding in a path parameter', () => request('GET', '/v1/checkout/sessions/%ff', auth()), 400, 'Validation failed: malformed URL (bad percent-encoding)'],
      ['bad percent-encoding anywhere', () => request('GET', '/%ff%fe'), 400, 'Validation failed: malformed URL (bad percent-encoding)'],
      ['a path parameter over the router limit', () => request('GET', `/v1/checkout/sessions/${'a'.repeat(300)}`, auth()), 414, 'URL too long'],
      ['an unknown route', () => request('GET', '/v1/nowhere'), 404, 'Not found'],
      ['an unknown route with a key', () => request('POST', '/v1/nowhere', { ...auth(), ...json }, '{}'), 404, 'Not found'],
      ['a known path with the wrong method', () => request('DELETE', '/v1/checkout/sessions', auth()), 405, 'Method not allowed'],
      ['PUT on /readyz', () => request('PUT', '/readyz'), 405, 'Method not allowed'],
      ['bad JSON', () => request('POST', '/v1/checkout/sessions', { ...auth(), ...json, 'Idempotency-Key': 'k-bad-json' }, '{"amount":'), 400, 'Validation failed: body is not valid JSON'],
      ['an empty JSON body', () => request('POST', '/v1/checkout/sessions', { ...auth(), ...json, 'Idempotency-Key': 'k-empty' }, ''), 400, /^Validation failed: /],
      ['an unsupported media type', () => request('POST', '/v1/checkout/sessions', { ...auth(), 'Content-Type': 'text/xml', 'Idempotency-Key': 'k-xml' }, '<a/>'), 415, 'Unsupported Content-Type: send application/json'],
      ['a body over 1 MB', () => request('POST', '/v1/checkout/sessions', { ...auth(), ...json, 'Idempotency-Key': 'k-big' }, JSON.stringify({ reference: 'x'.repeat(1_100_000) })), 413, 'Request body too large (limit 1 MB)'],
      ['a header with a control character', () => `GET /v1/nowhere HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0001b\r\n\r\n`, 400, 'Validation failed: malformed HTTP request'],
      ['a request line that is not HTTP', () => 'HELLO\r\n\r\n', 400, 'Validation failed: malformed HTTP request'],
      ['headers over the size limit', () => request('GET', '/v1/nowhere', { 'X-Big': 'a'.repeat(20_000) }), 431, 'Request headers too large'],
    ])('answers %s with { error }', async (_case, make, status, error) => {
      const answer = await raw(stack.url('gateway'), make());
      expectJsonError(answer, status, error);
    });

    it('names the allowed methods on 405', async () => {
      const answer = await raw(stack.url('gateway'), request('DELETE', '/v1/checkout/sessions', auth()));
      expect(answer.headers.allow).toBe('POST');
    });
  });

  describe.each<[ServiceName, string, number, string]>([
    ['checkout', '/sessions/%ff', 400, 'Validation failed: malformed URL (bad percent-encoding)'],
    ['dashboard', '/payments/%ff', 400, 'Validation failed: malformed URL (bad percent-encoding)'],
  ])('%s', (service, badPath, badStatus, badError) => {
    it.each<[string, () => string, number, string]>([
      ['bad percent-encoding', () => request('GET', badPath), badStatus, badError],
      ['a POST to an unknown route', () => request('POST', '/nowhere', json, '{}'), 404, 'Not found'],
      ['a header with a control character', () => `GET / HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0001b\r\n\r\n`, 400, 'Validation failed: malformed HTTP request'],
    ])('answers %s with { error }', async (_case, make, status, error) => {
      expectJsonError(await raw(stack.url(service), make()), status, error);
    });
  });

  describe.each<ServiceName>(['gateway', 'checkout', 'dashboard'])('%s: a client that never finishes its request (HTTP_REQUEST_TIMEOUT_MS)', (service) => {
    // The gateway reads no body it has no credential for: its body that never ends comes with the admin token.
    const withCredential = () => (service === 'gateway' ? `POST /v1/admin/merchants HTTP/1.1\r\nAuthorization: Bearer ${new GatewayClient(stack).adminToken}\r\n` : 'POST /nowhere HTTP/1.1\r\n');
    it.each<[string, () => string]>([
      ['headers that never end', () => 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: a'],
      ['a body that never ends', () => `${withCredential()}Host: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`],
    ])('answers %s with 408 { error } once the limit has passed, and closes the connection', async (_case, partial) => {
      const sent = Date.now();
      const answer = await raw(stack.url(service), partial());
      const waitedMs = Date.now() - sent;
      expectJsonError(answer, 408, 'Request timed out');
      expect(waitedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(waitedMs).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
    });
  });

  it('gateway: answers a body that never ends, sent with no credential (a wrong key, an unknown route), at once, and closes its connection once the limit has passed', async () => {
    for (const [head, status] of [
      ['POST /v1/checkout/sessions HTTP/1.1\r\nAuthorization: Bearer pp_live_nope\r\n', 401],
      ['POST /nowhere HTTP/1.1\r\n', 404],
    ] as const) {
      const sent = Date.now();
      const answer = await raw(stack.url('gateway'), `${head}Host: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`);
      expect(answer.status).toBe(status);
      expect(Date.now() - sent).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(Date.now() - sent).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
    }
  });

  it('dashboard: answers an unknown page with { error }', async () => {
    expectJsonError(await raw(stack.url('dashboard'), request('GET', '/nowhere')), 404, 'Not found');
  });

  it('checkout: answers a wrong method with 405 { error } and Allow', async () => {
    const answer = await raw(stack.url('checkout'), request('DELETE', '/embed/session'));
    expectJsonError(answer, 405, 'Method not allowed');
    expect(answer.headers.allow).toBe('POST');
  });

  it('checkout: answers a JSON request with a body over its limit with 413 { error }, not a 500', async () => {
    const answer = await raw(stack.url('checkout'), request('POST', '/embed/session', json, JSON.stringify({ x: 'x'.repeat(20_000) })));
    expectJsonError(answer, 413, 'Request body too large');
  });
});
