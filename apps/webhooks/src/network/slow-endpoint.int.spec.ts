import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MerchantEventType, WebhookDeliveryStatus } from '@pp/contracts';
import { BusClient, connectNats } from '@pp/platform';
import { TestStack, testInfra, waitFor } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { LedgerEventFixture } from '../intake/ledger-event.fixture';
import { MAX_RESPONSE_BODY_BYTES, sendWebhook } from './webhook-sender';

const TIMEOUT_MS = 1000;

/**
 * A hostile receiver: answers the status line at once, then either trickles
 * its body one byte every 100 ms forever or floods it. Tracks its sockets so
 * the spec can see, from the server's side, whether the sender let go.
 */
class SlowEndpoint {
  readonly sockets = new Set<Socket>();
  private readonly streams = new Set<NodeJS.Timeout>();
  private constructor(private readonly server: Server) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<SlowEndpoint> {
    const server = createServer();
    const endpoint = new SlowEndpoint(server);
    server.on('request', (request, response) => {
      request.resume();
      if (request.url === '/flood') return endpoint.flood(response);
      endpoint.trickle(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  openConnections(): number {
    return [...this.sockets].filter((socket) => !socket.destroyed).length;
  }

  async close(): Promise<void> {
    for (const timer of this.streams) clearInterval(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private trickle(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.flushHeaders();
    const timer = setInterval(() => response.write('.'), 100);
    this.streams.add(timer);
    response.on('close', () => clearInterval(timer));
  }

  private flood(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    const timer = setInterval(() => response.write(chunk), 5);
    this.streams.add(timer);
    response.on('close', () => clearInterval(timer));
  }
}

describe('a slow-streaming webhook endpoint', () => {
  let endpoint: SlowEndpoint;

  beforeEach(async () => {
    endpoint = await SlowEndpoint.start();
  });
  afterEach(() => endpoint?.close());

  it('given headers then a body trickling forever, when an attempt is made, then it ends at its deadline and closes the socket', async () => {
    const started = Date.now();
    const response = await sendWebhook({ url: endpoint.url('/trickle'), body: Buffer.from('{}'), headers: {}, timeoutMs: TIMEOUT_MS, allowPrivate: true });
    const took = Date.now() - started;

    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(took).toBeLessThan(TIMEOUT_MS + 1000);
    // The status line is the endpoint's answer: a 2xx counts, with a note that the body was cut off.
    expect(response).toMatchObject({
      httpStatus: 200,
      error: `endpoint answered 200; response body not finished within ${TIMEOUT_MS} ms, connection closed`,
    });
    await waitFor('the endpoint to see its connection closed', () => endpoint.openConnections() === 0, { timeoutMs: 2000 });
  });

  it('given a body larger than the cap, when an attempt is made, then it stops reading and closes the socket before the deadline', async () => {
    const started = Date.now();
    const response = await sendWebhook({ url: endpoint.url('/flood'), body: Buffer.from('{}'), headers: {}, timeoutMs: 5000, allowPrivate: true });

    expect(Date.now() - started).toBeLessThan(5000);
    expect(response).toMatchObject({ httpStatus: 200, error: `endpoint answered 200; response body over ${MAX_RESPONSE_BODY_BYTES} bytes, connection closed` });
    await waitFor('the endpoint to see its connection closed', () => endpoint.openConnections() === 0, { timeoutMs: 2000 });
  });

  describe('through the webhooks service (real Postgres, NATS, Redis)', () => {
    let stack: TestStack;
    let nc: NatsConnection;
    let bus: BusClient;
    let ledger: LedgerEventFixture;

    beforeAll(async () => {
      stack = await TestStack.start({
        services: ['webhooks'],
        label: 'webhooksslow',
        env: { WEBHOOK_RETRY_SCHEDULE: '0,0.2', WEBHOOK_ATTEMPT_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      });
      nc = await connectNats(testInfra.natsUrl, 'webhooks-slow-spec');
      bus = new BusClient(nc, stack.namespace, 5000);
      ledger = new LedgerEventFixture(nc, stack.namespace);
      await ledger.createStream();
    });
    afterAll(async () => {
      await nc?.close();
      await stack?.stop();
    });

    it('records the attempt by its deadline and leaves no socket open to the endpoint', async () => {
      const merchant = `mer_slow${Date.now()}`;
      await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: endpoint.url('/trickle') });
      const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
      await ledger.publish(event);

      const [attempt] = await waitFor('the attempt to be recorded', async () => {
        const { deliveries } = await bus.request('webhooks.deliveries.list.v1', { merchant_id: merchant, livemode: false, event_id: event.id });
        return deliveries.length > 0 && deliveries[0].delivery_status !== WebhookDeliveryStatus.Pending && deliveries;
      });
      expect(attempt).toMatchObject({
        delivery_status: WebhookDeliveryStatus.Success,
        http_status: 200,
        error_message: `endpoint answered 200; response body not finished within ${TIMEOUT_MS} ms, connection closed`,
      });
      expect(attempt.latency_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(attempt.latency_ms).toBeLessThan(TIMEOUT_MS + 1000);
      // A destroyed socket leaves the set on its 'close' event, a tick after `destroyed` turns true: wait for both.
      await waitFor('the endpoint to see its connection closed', () => endpoint.openConnections() === 0 && endpoint.sockets.size === 0, { timeoutMs: 2000 });
      expect(endpoint.sockets.size).toBe(0);
    });
  });
});
