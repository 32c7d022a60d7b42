import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent } from 'node:http';
import { listenOnLoopback } from './forked-server';
import { httpPost, pacedLoad } from './load';

/** A loopback server that answers 201 at once, except the requests `holds` picks, which it never answers. */
async function server(holds: (index: number) => boolean): Promise<{ url: string; close(): Promise<void> }> {
  let index = 0;
  const http: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const held = holds(index++);
    req.resume();
    req.on('end', () => {
      if (!held) res.writeHead(201).end('{}');
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

  it('given a server that never answers one request, then the load ends by its deadline, counts it an error, and its wait weighs on the latencies', async () => {
    stub = await server((index) => index === 2);
    const started = Date.now();

    const result = await pacedLoad({ url: `${stub.url}/`, body: () => ({}), seconds: 1, connections: 4, rate: 10, timeoutMs: 1500 });

    expect(Date.now() - started).toBeLessThan(1000 + 1500 + 1000);
    expect(result).toMatchObject({ requests: 9, non_2xx: 0, errors: 1 });
    // Timed from its due time to its deadline: at least the deadline, the slowest of the ten.
    expect(result.max_ms).toBeGreaterThanOrEqual(1500);
    expect(result.from_send?.max_ms).toBeGreaterThanOrEqual(1500);
  });

  it('given a post with no answer, then httpPost rejects at its deadline', async () => {
    stub = await server(() => true);
    const agent = new Agent({ keepAlive: true });
    const started = Date.now();
    try {
      await expect(httpPost(agent, new URL(`${stub.url}/x`), {}, '{}', 300)).rejects.toThrow('POST /x: no answer within 300 ms');
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      agent.destroy();
    }
  });
});
