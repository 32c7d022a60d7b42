import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real server (Redis, here) that can stop passing
 * the server's answers on while keeping every connection open: a server that
 * hangs (paused, or cut off by the network without a reset), which no error
 * reveals to its clients. What it holds back it passes on when thawed.
 */
export class FreezableRelay {
  private frozen = false;
  private readonly held: Array<{ to: Socket; data: Buffer }> = [];
  private constructor(
    private readonly server: Server,
    private readonly scheme: string,
  ) {}

  /** A relay to `upstream`, which names its port (redis://127.0.0.1:6379), on a free port of 127.0.0.1. */
  static async start(upstream: URL): Promise<FreezableRelay> {
    const server = createServer();
    const relay = new FreezableRelay(server, upstream.protocol);
    server.on('connection', (client) => {
      const target = connect(Number(upstream.port), upstream.hostname);
      client.on('data', (data) => target.write(data));
      target.on('data', (data) => (relay.frozen ? relay.held.push({ to: client, data }) : client.write(data)));
      client.on('close', () => target.destroy());
      target.on('close', () => client.destroy());
      client.on('error', () => target.destroy());
      target.on('error', () => client.destroy());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return relay;
  }

  /** The relay's address, with the upstream's scheme. */
  get url(): string {
    return `${this.scheme}//127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** From now on, holds back what the server answers (what clients send still reaches it). */
  freeze(): void {
    this.frozen = true;
  }

  /** Passes on what the server answered meanwhile, late, and everything after. */
  thaw(): void {
    this.frozen = false;
    for (const { to, data } of this.held.splice(0)) to.write(data);
  }

  /** Stops taking connections; those open end with their clients. */
  stop(): void {
    this.server.close();
  }
}
