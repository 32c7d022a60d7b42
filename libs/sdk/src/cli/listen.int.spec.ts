import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckoutClient } from '../client';
import { listen } from './listen';

/*
 * `listen` forwarding to real HTTP servers on this machine: what fetch does
 * with a receiver's redirect or endless answer, which a stubbed fetch would
 * only assume. The gateway's stream is a local server too.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A server on 127.0.0.1 answering with `handler`, recording each request. */
async function serve(handler: Handler) {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { requests, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

const EVENT = { id: 'evt_abcdefgh12', type: 'payment.confirmed', created_at: '2026-01-01T00:00:00Z', livemode: false, data: { reference: 'order-1', amount: 2500 } };

describe('listen forwarding to a real receiver', () => {
  let dir: string;
  const servers: Array<{ close(): Promise<void> }> = [];
  const started = async (handler: Handler) => {
    const server = await serve(handler);
    servers.push(server);
    return server;
  };
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pp-listen-'))));
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs listen, against a gateway streaming one event, until it reports the first delivery: that report. */
  async function firstReport(forwardTo: string): Promise<Record<string, unknown>> {
    const gateway = await started((_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: ${EVENT.id}\ndata: ${JSON.stringify(EVENT)}\n\n`));
    const controller = new AbortController();
    const lines: string[] = [];
    const output = { json: true, out: (line: string) => (lines.push(line), controller.abort()), progress: () => undefined };
    const client = new CheckoutClient({ apiKey: 'pp_live_test_x', apiBase: gateway.url });
    await listen(client, { apiKey: 'pp_live_test_x', forwardTo, since: 'start', statePath: join(dir, 'listen.json'), intervalMs: 1000, signal: controller.signal, output });
    return JSON.parse(lines[0]) as Record<string, unknown>;
  }

  it('given a receiver answering 307 to another server, when an event is forwarded, then the redirect is reported as its answer and the other server receives nothing', async () => {
    const elsewhere = await started((_req, res) => res.writeHead(200).end());
    const receiver = await started((_req, res) => res.writeHead(307, { location: `${elsewhere.url}/hooks` }).end());

    const report = await firstReport(`${receiver.url}/hooks`);

    expect(report).toEqual({ event_id: EVENT.id, type: EVENT.type, status: 307, latency_ms: expect.any(Number), error: `a redirect to ${elsewhere.url}/hooks, not followed` });
    expect(receiver.requests).toEqual(['POST /hooks']);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('given a receiver whose answer never ends, when an event is forwarded, then its status is reported without waiting for the rest of the body', async () => {
    const receiver = await started((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const sending = setInterval(() => res.write(Buffer.alloc(16 * 1024, 'x')), 5);
      res.on('close', () => clearInterval(sending));
    });

    const report = await firstReport(`${receiver.url}/hooks`);

    expect(report).toEqual({ event_id: EVENT.id, type: EVENT.type, status: 200, latency_ms: expect.any(Number) });
    expect(report.latency_ms).toBeLessThan(5_000);
  });
});
