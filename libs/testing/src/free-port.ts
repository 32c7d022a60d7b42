import { randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:net';

/**
 * Ports are drawn below Linux's ephemeral range (32768-60999 by default),
 * from which the kernel picks the local port of every outgoing connection:
 * a port the kernel handed out as free there could be taken by some test's
 * outgoing connection before the service bound it (EADDRINUSE at start).
 */
const LOWEST = 20_000;
const HIGHEST = 29_999;
/** Blocks of consecutive ports come from above single ports, so neither can take the other's. */
const BLOCKS_FROM = 30_000;
const BLOCKS_TO = 32_767;
const ATTEMPTS = 50;

/** A port nobody listens on now, so URLs can be fixed before the services start. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}

/**
 * `count` distinct ports nobody listens on now. Each is held while the next
 * are drawn, so the same port cannot come back twice (two separate freePort
 * calls could answer the same one, about once in 10,000 pairs).
 */
export async function freePorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  try {
    for (let attempt = 0; held.length < count; attempt++) {
      if (attempt === ATTEMPTS * count) throw new Error(`no ${count} free ports between ${LOWEST} and ${HIGHEST} after ${attempt} tries`);
      const server = await listenIfFree(randomInt(LOWEST, HIGHEST + 1));
      if (server) held.push(server);
    }
    return held.map((server) => (server.address() as { port: number }).port);
  } finally {
    await closeAll(held);
  }
}

/**
 * The first of `size` consecutive ports nobody listens on now, for a process
 * that derives its ports from one (the launcher: the gateway's, then the
 * metrics ports above it). Drawn from a range single ports never come from.
 */
export async function freePortBlock(size: number): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const first = randomInt(BLOCKS_FROM, BLOCKS_TO - size + 2);
    const held: Server[] = [];
    for (let port = first; port < first + size; port++) {
      const server = await listenIfFree(port);
      if (!server) break;
      held.push(server);
    }
    await closeAll(held);
    if (held.length === size) return first;
  }
  throw new Error(`no ${size} consecutive free ports between ${BLOCKS_FROM} and ${BLOCKS_TO} after ${ATTEMPTS} tries`);
}

/** A server listening on `port` on every interface (services bind 0.0.0.0), or undefined if it is taken. */
function listenIfFree(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '0.0.0.0', () => resolve(server));
  });
}

const closeAll = (servers: readonly Server[]): Promise<unknown> => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
