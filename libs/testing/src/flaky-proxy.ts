import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with one request:
 * - `drop`: closes the connection before forwarding (the call never ran);
 * - `lose-answer`: forwards, waits for the upstream's answer, then closes the
 *   connection instead of relaying it (the call ran, the client never learns);
 * - a status: answers it itself with `retryAfter` as Retry-After;
 * - `pass`: forwards and relays.
 */
export type FlakyStep = 'drop' | 'lose-answer' | 'pass' | { status: number; retryAfter?: string };

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  step: FlakyStep;
  /** The upstream's answer, when the request reached it. */
  upstreamStatus?: number;
  upstreamBody?: string;
}

/** An HTTP proxy in front of a real service that fails on purpose, as scripted, for client retry tests. */
export class FlakyProxy {
  readonly requests: ProxiedRequest[] = [];
  private script: FlakyStep[] = [];

  private constructor(
    private readonly server: Server,
    private readonly upstream: URL,
  ) {}

  static async start(upstream: string): Promise<FlakyProxy> {
    const server = createServer();
    const proxy = new FlakyProxy(server, new URL(upstream));
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const step = proxy.script.shift() ?? 'pass';
        const record: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, step };
        proxy.requests.push(record);
        if (step === 'drop') return req.socket.destroy();
        if (typeof step === 'object') {
          res.writeHead(step.status, { 'content-type': 'application/json', ...(step.retryAfter === undefined ? {} : { 'retry-after': step.retryAfter }) });
          return res.end(JSON.stringify({ error: `proxy answered ${step.status}` }));
        }
        const forwarded = httpRequest(
          new URL(record.path, proxy.upstream),
          { method: record.method, headers: { ...req.headers, host: proxy.upstream.host } },
          (upstreamRes) => {
            const body: Buffer[] = [];
            upstreamRes.on('data', (chunk: Buffer) => body.push(chunk));
            upstreamRes.on('end', () => {
              record.upstreamStatus = upstreamRes.statusCode;
              record.upstreamBody = Buffer.concat(body).toString('utf8');
              if (step === 'lose-answer') return req.socket.destroy();
              res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
              res.end(Buffer.concat(body));
            });
          },
        );
        forwarded.on('error', () => req.socket.destroy());
        forwarded.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next requests' fates, in order; after them every request passes. */
  failNext(...steps: FlakyStep[]): void {
    this.script = steps;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
