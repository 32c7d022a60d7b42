import { createServer, type Server } from 'node:net';
import { freePort } from './free-port';

const listen = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve(server));
  });

describe('freePort', () => {
  it('given a port it answers, then it lies below the ephemeral range outgoing connections use, and a service can listen on it', async () => {
    const port = await freePort();

    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(32_768);
    const server = await listen(port);
    await new Promise((resolve) => server.close(resolve));
  });
});
