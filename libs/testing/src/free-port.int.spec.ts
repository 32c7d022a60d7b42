import { createServer, type Server } from 'node:net';
import { freePort, freePortBlock, freePorts } from './free-port';

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
    expect(port).toBeLessThan(30_000);
    const server = await listen(port);
    await new Promise((resolve) => server.close(resolve));
  });

  it('given several ports asked for at once, then they are distinct and each can be listened on', async () => {
    const ports = await freePorts(12);

    expect(new Set(ports).size).toBe(12);
    const servers = await Promise.all(ports.map(listen));
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('given a block asked for, then it lies above the single ports, inside the range below the ephemeral one, and every port of it can be listened on', async () => {
    const first = await freePortBlock(15);

    expect(first).toBeGreaterThanOrEqual(30_000);
    expect(first + 14).toBeLessThan(32_768);
    const servers = await Promise.all(Array.from({ length: 15 }, (_, i) => listen(first + i)));
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });
});
