import { connect, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { destroyAnswered } from '../http/answer-ended';
import { carryRequestIds } from '../http/request-id';
import { answerMalformedRequests } from '../http/malformed-request.handler';
import { limitRequestBodyTime } from '../http/request-deadline';
import { serveHttpMetrics } from './http-metrics';
import { ServiceMetrics } from './service-metrics';

const countedLines = async (app: FastifyInstance) =>
  (await app.inject({ method: 'GET', url: '/metrics' })).body.split('\n').filter((line) => line.startsWith('pp_http_requests_total{'));

/** A raw connection to `app` that keeps its own side open after the server ends its side (as a slow client may). */
async function halfOpenConnection(app: FastifyInstance): Promise<Socket> {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  const socket = connect({ host: '127.0.0.1', port: address.port, allowHalfOpen: true });
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

/**
 * The counted lines once a request is counted: a request is counted when its response hears its socket close, which
 * may come a turn or more after the client saw the connection end. Empty if nothing is counted within 2 s.
 */
async function countedOnceClosed(app: FastifyInstance): Promise<string[]> {
  const deadline = Date.now() + 2000;
  while ((await countedLines(app)).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return countedLines(app);
}

const ended = (socket: Socket) => new Promise<void>((resolve) => socket.once('end', () => resolve()));
const openConnections = (app: FastifyInstance) => new Promise<number>((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

describe('HTTP metrics of a web app', () => {
  describe('given requests to a route with a parameter, an unknown path and the metrics route itself', () => {
    it('then they are counted by route template and status, never by raw URL, and scrapes are not counted', async () => {
      const app = Fastify();
      const metrics = new ServiceMetrics('gateway', { processMetrics: false });
      serveHttpMetrics(app, metrics);
      app.get('/v1/things/:id', async (request, reply) => reply.code((request.params as { id: string }).id === 'missing' ? 404 : 200).send({}));
      await app.inject({ method: 'GET', url: '/v1/things/cs_abc123' });
      await app.inject({ method: 'GET', url: '/v1/things/cs_def456?expand=1' });
      await app.inject({ method: 'GET', url: '/v1/things/missing' });
      await app.inject({ method: 'GET', url: '/wp-admin/cs_ghi789' });
      await app.inject({ method: 'GET', url: '/metrics' });

      const scrape = await app.inject({ method: 'GET', url: '/metrics' });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const requests = scrape.body.split('\n').filter((line) => line.startsWith('pp_http_requests_total{'));
      expect(requests.sort()).toEqual([
        'pp_http_requests_total{route="/v1/things/:id",method="GET",status="200",service="gateway"} 2',
        'pp_http_requests_total{route="/v1/things/:id",method="GET",status="404",service="gateway"} 1',
        'pp_http_requests_total{route="unmatched",method="GET",status="404",service="gateway"} 1',
      ]);
      expect(scrape.body).toContain('pp_http_request_duration_seconds_count{service="gateway",route="/v1/things/:id",method="GET"} 3');
      expect(scrape.body).not.toMatch(/cs_|wp-admin/);
      await app.close();
    });
  });

  describe('given a client that leaves before its answer', () => {
    it('then the request is counted, as 499 (Fastify never reaches onResponse for it)', async () => {
      const app = Fastify();
      const metrics = new ServiceMetrics('gateway', { processMetrics: false });
      serveHttpMetrics(app, metrics);
      let arrived!: () => void;
      const handling = new Promise<void>((resolve) => (arrived = resolve));
      app.get('/v1/slow', () => {
        arrived();
        return new Promise(() => undefined); // never answers: the bus deadline is longer than the client's
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const socket = await halfOpenConnection(app);
      socket.write('GET /v1/slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await handling;
      socket.destroy();

      expect(await countedOnceClosed(app)).toEqual(['pp_http_requests_total{route="/v1/slow",method="GET",status="499",service="gateway"} 1']);
      await app.close();
    });
  });

  describe('given an answer the server cuts after its status went out (a stream whose reader stopped reading)', () => {
    it('then the request is counted with the status it was answered, not as the client leaving', async () => {
      const app = Fastify();
      const metrics = new ServiceMetrics('gateway', { processMetrics: false });
      serveHttpMetrics(app, metrics);
      app.get('/v1/events/stream', (_request, reply) => {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
        reply.raw.write('retry: 1000\n\n', () => destroyAnswered(reply.raw));
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const socket = await halfOpenConnection(app);
      const cut = ended(socket);
      socket.on('data', () => undefined);
      socket.write('GET /v1/events/stream HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await cut;
      socket.destroy();

      expect(await countedOnceClosed(app)).toEqual(['pp_http_requests_total{route="/v1/events/stream",method="GET",status="200",service="gateway"} 1']);
      await app.close();
    });
  });

  describe('given a body that never finishes arriving (limitRequestBodyTime), from a client that keeps its side open', () => {
    it('then it is answered 408 under the request id it was given, counted as 408, and its connection is closed', async () => {
      const app = Fastify();
      const metrics = new ServiceMetrics('dashboard', { processMetrics: false });
      answerMalformedRequests(app.server);
      limitRequestBodyTime(app, 100);
      serveHttpMetrics(app, metrics);
      carryRequestIds(app);
      app.post('/v1/things', async () => ({}));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const socket = await halfOpenConnection(app);
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.write('POST /v1/things HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: req-slow-1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');

      await ended(socket);
      // The server waits a moment for the client to close its side, then drops the connection itself.
      const deadline = Date.now() + 3000;
      while ((await openConnections(app)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await openConnections(app)).toBe(0);
      socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toMatch(/\r\nX-Request-Id: req-slow-1\r\n/);
      expect(await countedOnceClosed(app)).toEqual(['pp_http_requests_total{route="/v1/things",method="POST",status="408",service="dashboard"} 1']);
      await app.close();
    });
  });
});
