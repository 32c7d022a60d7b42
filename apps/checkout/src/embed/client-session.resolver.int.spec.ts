import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError, ErrorCode } from '@pp/contracts';
import { randomToken } from '@pp/kernel';
import { requestContext } from '@pp/platform';
import type { CheckoutConfig } from '../checkout.config';
import { ClientSessionResolver } from './client-session.resolver';

/*
 * What the resolver sends the gateway, seen by a real HTTP server in the
 * gateway's place: the payer request's id goes along (so the gateway's logs
 * and answer carry the id the payer sees), and the call gives up by that
 * request's deadline when it has one, as bus calls do.
 */
describe('ClientSessionResolver: what reaches the gateway', () => {
  const sessionId = `c${'0'.repeat(23)}`;
  const clientSecret = `${sessionId}_secret_${'A1b2C3'.repeat(4)}`;
  const key = `pp_pub_test_${randomToken(24)}`;
  const seen: IncomingHttpHeaders[] = [];
  const held: ServerResponse[] = [];
  let answering = true;
  let redirectingTo: string | undefined;
  const server = createServer((request, response) => {
    seen.push(request.headers);
    if (!answering) return void held.push(response); // a gateway that never answers
    if (redirectingTo) return void response.writeHead(307, { location: redirectingTo }).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: sessionId, status: 'PENDING' }));
  });
  let resolver: ClientSessionResolver;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    resolver = new ClientSessionResolver({ GATEWAY_URL: gateway } as CheckoutConfig);
  });
  beforeEach(() => {
    seen.length = 0;
    answering = true;
    redirectingTo = undefined;
  });
  afterAll(async () => {
    for (const response of held) response.end();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('given a payer request with an id, then the gateway sees that id in X-Request-Id beside the key and the payer’s address', async () => {
    const session = await requestContext.run({ requestId: 'req-embed-7f3a' }, () => resolver.resolve(key, clientSecret, '203.0.113.9'));
    expect(session).toEqual({ id: sessionId, status: 'PENDING' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ 'x-request-id': 'req-embed-7f3a', authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.9' });
  });

  it('given a request whose deadline is near and a gateway that does not answer, then the call gives up by the deadline, well before its own 5 s', async () => {
    answering = false;
    const started = Date.now();
    const call = requestContext.run({ requestId: 'req-deadline', deadline: started + 300 }, () => resolver.resolve(key, clientSecret, '203.0.113.9'));
    await expect(call).rejects.toThrow(DomainError);
    await expect(call).rejects.toMatchObject({ code: ErrorCode.ServiceUnavailable, message: expect.stringMatching(/^Gateway unreachable: .*(abort|timeout)/i) });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(seen).toHaveLength(1);
  });

  it('given a request whose deadline has passed, then the gateway is not asked', async () => {
    const call = requestContext.run({ requestId: 'req-late', deadline: Date.now() - 1 }, () => resolver.resolve(key, clientSecret, '203.0.113.9'));
    await expect(call).rejects.toMatchObject({ code: ErrorCode.ServiceUnavailable, message: 'Gateway not asked: the request is past its deadline' });
    expect(seen).toEqual([]);
  });

  it('given a gateway address that redirects elsewhere (a misrouted ingress), then the payer’s client secret is not sent on, and the payer gets a 503', async () => {
    const elsewhere: IncomingHttpHeaders[] = [];
    const other = createServer((request, response) => {
      elsewhere.push(request.headers);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: sessionId, status: 'PENDING' }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      redirectingTo = `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1/client/checkout/session`;
      const call = resolver.resolve(key, clientSecret, '203.0.113.9');
      await expect(call).rejects.toMatchObject({ code: ErrorCode.ServiceUnavailable, message: expect.stringMatching(/^Gateway unreachable: .*redirect/i) });
      expect(seen).toHaveLength(1);
      expect(elsewhere).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
