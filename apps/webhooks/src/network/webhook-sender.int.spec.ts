import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { waitFor } from '@pp/testing';
import {
  DELIVERY_AGENTS,
  IDLE_SOCKET_TIMEOUT_MS,
  MAX_FREE_SOCKETS_PER_POOL,
  MAX_TOTAL_SOCKETS,
  sendWebhook,
  type WebhookAgents,
  webhookAgents,
} from './webhook-sender';

/**
 * A receiver that answers 200 at once and never closes a keep-alive
 * connection itself (no idle timeout, no Keep-Alive hint), so whatever closes
 * one is the sender. It notes each connection and, over TLS, the name the
 * client sent (SNI; false for none).
 */
class KeepAliveReceiver {
  readonly connections: Array<{ socket: Socket; servername?: string | false | null }> = [];

  private constructor(
    private readonly server: Server,
    private readonly secure: boolean,
  ) {
    server.keepAliveTimeout = 0;
    server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.connections.push({ socket, servername: (socket as TLSSocket).servername });
    });
    server.on('request', (request, response) => {
      request.resume();
      request.on('end', () => response.end('ok'));
    });
  }

  static async start(host = '127.0.0.1', tls?: { key: Buffer; cert: Buffer }): Promise<KeepAliveReceiver> {
    const receiver = new KeepAliveReceiver(tls ? createHttpsServer(tls) : createHttpServer(), tls !== undefined);
    await new Promise<void>((resolve) => receiver.server.listen(0, host, resolve));
    return receiver;
  }

  url(host = '127.0.0.1'): string {
    return `${this.secure ? 'https' : 'http'}://${host}:${(this.server.address() as AddressInfo).port}/hook`;
  }

  open(): number {
    return this.connections.filter(({ socket }) => !socket.destroyed).length;
  }

  async close(): Promise<void> {
    for (const { socket } of this.connections) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const post = (url: string, agents?: WebhookAgents, timeoutMs = 2000) =>
  sendWebhook({ url, body: Buffer.from('{}'), headers: {}, timeoutMs, allowPrivate: true, agents });

describe('sendWebhook’s connections', () => {
  const receivers: KeepAliveReceiver[] = [];
  const receiver = async (...args: Parameters<typeof KeepAliveReceiver.start>) => {
    const started = await KeepAliveReceiver.start(...args);
    receivers.push(started);
    return started;
  };
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((started) => started.close()));
  });

  it('bounds the shared pools: idle connections kept per pool and connections over all pools', () => {
    for (const agent of [DELIVERY_AGENTS['http:'], DELIVERY_AGENTS['https:']]) {
      expect(agent).toMatchObject({ keepAlive: true, maxFreeSockets: MAX_FREE_SOCKETS_PER_POOL, maxTotalSockets: MAX_TOTAL_SOCKETS });
    }
    expect(MAX_FREE_SOCKETS_PER_POOL).toBeLessThanOrEqual(MAX_TOTAL_SOCKETS);
    expect(IDLE_SOCKET_TIMEOUT_MS).toBeGreaterThanOrEqual(5_000);
    expect(IDLE_SOCKET_TIMEOUT_MS).toBeLessThanOrEqual(15_000);
  });

  it('given a receiver that never closes keep-alive connections, when attempts end, then their connection is reused and closed once idle for the timeout', async () => {
    const endpoint = await receiver();
    expect(await post(endpoint.url())).toMatchObject({ httpStatus: 200, error: null });
    expect(await post(endpoint.url())).toMatchObject({ httpStatus: 200, error: null });
    expect([endpoint.connections.length, endpoint.open()]).toEqual([1, 1]); // one connection, kept for the next attempt
    const idleSince = Date.now();

    await waitFor('the idle connection to be closed by the sender', () => endpoint.open() === 0, { timeoutMs: IDLE_SOCKET_TIMEOUT_MS + 3_000 });
    expect(Date.now() - idleSince).toBeGreaterThanOrEqual(IDLE_SOCKET_TIMEOUT_MS - 500);
  }, 30_000);

  it('given an agent holding as many connections as it may, all idle in other pools, when an attempt needs a new one, then an idle one is closed to make room', async () => {
    const agents = webhookAgents({ maxTotalSockets: 2, idleTimeoutMs: 60_000 });
    try {
      const [a, b, c] = [await receiver(), await receiver(), await receiver()];
      await post(a.url(), agents);
      await post(b.url(), agents);
      expect([a.open(), b.open()]).toEqual([1, 1]);

      const started = Date.now();
      expect(await post(c.url(), agents)).toMatchObject({ httpStatus: 200, error: null });
      expect(Date.now() - started).toBeLessThan(1_000); // not left waiting for an idle connection's timeout
      await waitFor('one idle connection to be closed', () => a.open() + b.open() === 1, { timeoutMs: 2_000 });
    } finally {
      agents['http:'].destroy();
    }
  });

  describe('over TLS to an IP literal', () => {
    let dir: string;
    let tls: { key: Buffer; cert: Buffer };
    let agents: WebhookAgents;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);

    beforeAll(() => {
      // A certificate for localhost, 127.0.0.1 and ::1, trusted by the spec's own agent only.
      dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
      execFileSync('openssl', [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost',
        '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      ], { stdio: 'ignore' });
      tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
      agents = webhookAgents({ tls: { ca: tls.cert } });
      process.on('warning', onWarning);
    });
    afterAll(() => {
      process.off('warning', onWarning);
      agents?.['https:'].destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    it('given an IPv6 literal, when an attempt is made, then the certificate is checked against the address and the attempt succeeds', async () => {
      const endpoint = await receiver('::1', tls);
      expect(await post(endpoint.url('[::1]'), agents)).toMatchObject({ httpStatus: 200, error: null });
      expect(endpoint.connections.map(({ servername }) => servername ?? false)).toEqual([false]); // no TLS name sent
    });

    it('given an IPv4 literal, when an attempt is made, then no TLS name is sent (no DEP0123) and the attempt succeeds', async () => {
      const endpoint = await receiver('127.0.0.1', tls);
      expect(await post(endpoint.url('127.0.0.1'), agents)).toMatchObject({ httpStatus: 200, error: null });
      expect(endpoint.connections.map(({ servername }) => servername ?? false)).toEqual([false]);
      expect(warnings.filter((warning) => (warning as Error & { code?: string }).code === 'DEP0123')).toEqual([]);
    });

    it('given a DNS name, when an attempt is made, then it is sent as the TLS name and the certificate is checked against it', async () => {
      const endpoint = await receiver('127.0.0.1', tls);
      expect(await post(endpoint.url('localhost'), agents)).toMatchObject({ httpStatus: 200, error: null });
      expect(endpoint.connections.map(({ servername }) => servername)).toEqual(['localhost']);
    });
  });
});
