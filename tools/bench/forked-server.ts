import { fork } from 'node:child_process';
import type { Server } from 'node:http';

export interface ForkedServer {
  /** What the child sent once it was ready (its URL, or nothing for a server that only listens on the bus). */
  url: string;
  pid: number;
  close(): Promise<void>;
}

/**
 * Starts `script` in a process of its own, as each service runs, so its CPU
 * per request is measured like theirs (not mixed with the load generator's).
 * The child reports ready by sending `{ url }` over IPC, and stops on SIGTERM.
 */
export function forkServer(script: string, args: string[], env: Record<string, string>): Promise<ForkedServer> {
  const child = fork(script, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} ${args.join(' ')} exited with ${code}`)));
    child.once('message', (message: { url?: string }) =>
      resolve({
        url: message.url ?? '',
        pid: child.pid ?? 0,
        close: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      }),
    );
  });
}

/** The child's side: report ready, and stop cleanly on SIGTERM. */
export function serveForked(started: Promise<{ url?: string; close(): Promise<void> }>): void {
  void started.then((server) => {
    process.send?.({ url: server.url });
    process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  });
}

/** Listens on a free loopback port; the server's URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}
