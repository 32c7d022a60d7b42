import { type ChildProcess, fork } from 'node:child_process';
import type { Server } from 'node:http';

export interface ForkedServer {
  /** What the child sent once it was ready (its URL, or nothing for a server that only listens on the bus). */
  url: string;
  pid: number;
  close(): Promise<void>;
}

/** How long close() waits for the child to stop on SIGTERM before it sends SIGKILL. */
export const KILL_AFTER_MS = 10_000;

/**
 * Starts `script` in a process of its own, as each service runs, so its CPU
 * per request is measured like theirs (not mixed with the load generator's).
 * The child reports ready by sending `{ url }` over IPC, and stops on SIGTERM;
 * close() resolves at once for a child that has already exited, and kills one
 * still running `killAfterMs` after the SIGTERM.
 */
export function forkServer(script: string, args: string[], env: Record<string, string>, { killAfterMs = KILL_AFTER_MS }: { killAfterMs?: number } = {}): Promise<ForkedServer> {
  const child = fork(script, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} ${args.join(' ')} exited with ${code}`)));
    child.once('message', (message: { url?: string }) =>
      resolve({
        url: message.url ?? '',
        pid: child.pid ?? 0,
        close: () => stopChild(child, killAfterMs),
      }),
    );
  });
}

/** SIGTERM, then SIGKILL after `killAfterMs`; resolved once the child has exited, at once if it already had (its 'exit' will not come again). */
function stopChild(child: ChildProcess, killAfterMs: number): Promise<void> {
  child.removeAllListeners('exit');
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
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
