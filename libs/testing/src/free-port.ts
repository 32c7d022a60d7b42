import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Ports are drawn below Linux's ephemeral range (32768-60999 by default),
 * from which the kernel picks the local port of every outgoing connection:
 * a port the kernel handed out as free there could be taken by some test's
 * outgoing connection before the service bound it (EADDRINUSE at start).
 */
const LOWEST = 20_000;
const HIGHEST = 32_767;
const ATTEMPTS = 50;

/** A port nobody listens on now, so URLs can be fixed before the services start. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = randomInt(LOWEST, HIGHEST + 1);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST} after ${ATTEMPTS} tries`);
}

/** Whether a service could listen on `port` on every interface now (services bind 0.0.0.0). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}
