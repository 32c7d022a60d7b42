import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { boundStop } from './bounded-stop';

/** A server on a free loopback port whose handler is the test's. */
async function listening(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A TCP connection to the port that sends nothing. */
async function silentConnection(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined); // the server may reset it
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  return socket;
}

/** Resolves `first` when the handler is first called: the request has reached the app. */
function handlerCalls(): { called: () => void; first: Promise<void> } {
  let called!: () => void;
  const first = new Promise<void>((resolve) => (called = resolve));
  return { called, first };
}

/** How the server's close() ended within `withinMs`: 'closed' or 'still open'. */
function closeWithin(server: Server, withinMs: number): Promise<'closed' | 'still open'> {
  return Promise.race([
    new Promise<'closed'>((resolve) => server.close(() => resolve('closed'))),
    new Promise<'still open'>((resolve) => setTimeout(resolve, withinMs, 'still open')),
  ]);
}

describe('boundStop', () => {
  const opened: Array<{ server: Server; sockets: Socket[] }> = [];
  afterEach(() => {
    for (const { server, sockets } of opened.splice(0)) {
      sockets.forEach((socket) => socket.destroy());
      server.closeAllConnections();
      server.close();
    }
  });

  it('given a connection that never sent a byte, when the server closes without it, then the close waits (what it changes)', async () => {
    const { server, port } = await listening((_request, response) => response.end('ok'));
    opened.push({ server, sockets: [await silentConnection(port)] });

    expect(await closeWithin(server, 500)).toBe('still open');
  });

  it('given a connection that never sent a byte, when the stop begins, then the close ends at once', async () => {
    const { server, port } = await listening((_request, response) => response.end('ok'));
    const beginStop = boundStop(server, 10_000);
    opened.push({ server, sockets: [await silentConnection(port)] });

    const stopped = beginStop();
    expect(await closeWithin(server, 500)).toBe('closed');
    stopped();
  });

  it('given a request in progress, when the stop begins, then it is answered before the close ends', async () => {
    const reached = handlerCalls();
    const { server, port } = await listening((_request, response) => {
      reached.called();
      setTimeout(() => response.end('finished'), 300);
    });
    const beginStop = boundStop(server, 10_000);
    opened.push({ server, sockets: [] });
    const answer = fetch(`http://127.0.0.1:${port}/`).then(async (response) => ({ status: response.status, body: await response.text() }));
    await reached.first;

    const stopped = beginStop();
    const closing = closeWithin(server, 2_000);

    expect(await answer).toEqual({ status: 200, body: 'finished' });
    expect(await closing).toBe('closed');
    stopped();
  });

  it('given a request that is never answered, when the drain time has passed, then its connection is closed and so is the server', async () => {
    const reached = handlerCalls();
    const { server, port } = await listening(() => reached.called());
    const beginStop = boundStop(server, 200);
    opened.push({ server, sockets: [] });
    const answer = fetch(`http://127.0.0.1:${port}/`).then(
      () => 'answered',
      () => 'connection closed',
    );
    await reached.first;

    const stopped = beginStop();

    expect(await closeWithin(server, 2_000)).toBe('closed');
    expect(await answer).toBe('connection closed');
    stopped();
  });
});
