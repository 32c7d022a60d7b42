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
 * How long a child may take to report ready before it is killed and its path fails: the baseline's first query and
 * a floor's NATS connections take well under a second; one that hangs (Postgres or NATS not answering) would hang the run.
 */
const READY_WITHIN_MS = 60_000;

/**
 * Starts `script` in a process of its own, as each service runs, so its CPU
 * per request is measured like theirs (not mixed with the load generator's).
 * The child reports ready by sending `{ url }` over IPC, and stops on SIGTERM;
 * one that exits first, or has not reported ready within `readyWithinMs`
 * (killed then), rejects. close() resolves at once for a child that has
 * already exited, and kills one still running `killAfterMs` after the SIGTERM.
 * A child that exits after it reported ready is not noticed here: the load on
 * it gets no answers (its row's `errors`, and 0 req/s).
 */
export function forkServer(
  script: string,
  args: string[],
  env: Record<string, string>,
  { killAfterMs = KILL_AFTER_MS, readyWithinMs = READY_WITHIN_MS }: { killAfterMs?: number; readyWithinMs?: number } = {},
): Promise<ForkedServer> {
  const child = fork(script, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const name = [script, ...args].join(' ');
  return new Promise<ForkedServer>((resolve, reject) => {
    const notReady = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not report ready within ${readyWithinMs / 1000} s (killed)`));
    }, readyWithinMs);
    const settle = () => clearTimeout(notReady);
    child.once('error', (error) => {
      settle();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      settle();
      reject(new Error(`${name} exited with ${code ?? signal}`));
    });
    child.once('message', (message: { url?: string }) => {
      settle();
      resolve({
        url: message.url ?? '',
        pid: child.pid ?? 0,
        close: () => stopChild(child, killAfterMs),
      });
    });
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

/**
 * The child's side: report ready, and stop cleanly on SIGTERM; exit at once when the IPC channel closes, that is
 * when the bench is gone (a second Ctrl-C exits it without cleaning up): no SIGTERM will come, and a baseline or a
 * floor left running would hold its port and its Postgres and NATS connections.
 */
export function serveForked(started: Promise<{ url?: string; close(): Promise<void> }>): void {
  process.once('disconnect', () => process.exit(0));
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
