import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent } from 'node:http';
import { listenOnLoopback } from './forked-server';
import { HttpTimeoutError, httpPost, pacedLoad } from './load';

/**
 * A loopback server that answers 201 (after `answerAfterMs`), except the requests `holds` picks, which it never
 * answers, those `resets` picks, whose connection it drops at once (the client's request fails fast), and those
 * `refuses` picks, which it answers 429 at once (a gateway shedding load).
 */
async function server(
  holds: (index: number) => boolean,
  {
    resets = () => false,
    refuses = () => false,
    answerAfterMs = 0,
  }: { resets?: (index: number) => boolean; refuses?: (index: number) => boolean; answerAfterMs?: number } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  let index = 0;
  const http: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const current = index++;
    if (resets(current)) {
      req.socket.destroy();
      return;
    }
    const held = holds(current);
    const refused = refuses(current);
    req.resume();
    req.on('end', () => {
      if (refused) res.writeHead(429).end('{}');
      else if (!held) setTimeout(() => res.writeHead(201).end('{}'), answerAfterMs);
    });
  });
  const url = await listenOnLoopback(http);
  return {
    url,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe("the bench's paced load (load.ts)", () => {
  let stub: { url: string; close(): Promise<void> } | undefined;

  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('given a server that never answers one request, then the load ends by its deadline, counts it an error, its wait weighs on the latencies, and it does not stretch the rate', async () => {
    stub = await server((index) => index === 2);
    const started = Date.now();

    const result = await pacedLoad({ url: `${stub.url}/`, body: () => ({}), seconds: 1, connections: 4, rate: 10, timeoutMs: 1500 });

    expect(Date.now() - started).toBeLessThan(1000 + 1500 + 1000);
    expect(result).toMatchObject({ requests: 9, non_2xx: 0, errors: 1 });
    // Timed from its due time to its deadline: at least the deadline, the slowest of the ten.
    expect(result.max_ms).toBeGreaterThanOrEqual(1490);
    expect(result.from_send?.max_ms).toBeGreaterThanOrEqual(1490);
    // Nine answers over the 0.9 s the sends took: about 10 a second. Had the wait for the held request (due at
    // 0.2 s, given up at 1.7 s) counted, 9 over 1.7 s: about 5.
    expect(result.requests_per_second).toBeGreaterThanOrEqual(7);
  });

  it('given requests that fail at once (a dropped connection), then they are errors only: their no-wait does not lower the latencies', async () => {
    // Six of ten dropped, four answered after 100 ms: counted, the six would make the p50 a millisecond or so.
    stub = await server(() => false, { resets: (index) => index < 6, answerAfterMs: 100 });

    const result = await pacedLoad({ url: `${stub.url}/`, body: () => ({}), seconds: 1, connections: 4, rate: 10, timeoutMs: 1500 });

    expect(result).toMatchObject({ requests: 4, non_2xx: 0, errors: 6 });
    expect(result.p50_ms).toBeGreaterThanOrEqual(90);
    expect(result.from_send?.p50_ms).toBeGreaterThanOrEqual(90);
  });

  it('given requests answered 429 at once (load shed), then they are counted in non_2xx only: their quick answers do not lower the latencies', async () => {
    // Six of ten refused at once, four answered after 100 ms: timed, the six would make the p50 a millisecond or so.
    stub = await server(() => false, { refuses: (index) => index < 6, answerAfterMs: 100 });

    const result = await pacedLoad({ url: `${stub.url}/`, body: () => ({}), seconds: 1, connections: 4, rate: 10, timeoutMs: 1500 });

    expect(result).toMatchObject({ requests: 10, non_2xx: 6, errors: 0 });
    expect(result.p50_ms).toBeGreaterThanOrEqual(90);
    expect(result.from_send?.p50_ms).toBeGreaterThanOrEqual(90);
  });

  it('given a post with no answer, then httpPost rejects at its deadline', async () => {
    stub = await server(() => true);
    const agent = new Agent({ keepAlive: true });
    const started = Date.now();
    try {
      const post = httpPost(agent, new URL(`${stub.url}/x`), {}, '{}', 300);
      await expect(post).rejects.toThrow('POST /x: no answer within 300 ms');
      await expect(post).rejects.toBeInstanceOf(HttpTimeoutError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      agent.destroy();
    }
  });
});
