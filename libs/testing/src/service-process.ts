import { type ChildProcess, fork } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from '@pp/contracts';
import { ANSWER_DRAIN_MAX_MS, SERVICE_NODE_FLAGS } from '@pp/platform';
import { REPO_ROOT } from './repo-root';

export { REPO_ROOT };

/** Pids of running test services, so `npm test` can reap them after a killed run. */
const PID_DIR = join(REPO_ROOT, 'tmp', 'test-pids');
/** Compiled entry point of an app; Jest's global set-up builds dist/ before any spec runs. */
export const entryPoint = (service: ServiceName) => join(REPO_ROOT, 'dist', 'apps', service, 'src', 'main.js');

/**
 * Node's compile cache (Node 22 and later; Node 20 ignores it), when the
 * test run names one: `npm test` does (tools/launcher/test.js). A service
 * compiles some 2,000 modules at every start, and the tests start services
 * about 200 times a run.
 */
const compileCache = (): Record<string, string> => (process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {});

/**
 * One service running as its own process, exactly as in production. Its
 * output goes to tmp/test-logs/<namespace>/<service>.log.
 */
export class ServiceProcess {
  port?: number;
  /** Where a service without HTTP answers GET /metrics (METRICS_PORT, 0 in tests: a free port). */
  metricsPort?: number;
  private child?: ChildProcess;
  private log?: WriteStream;
  private stderrTail = '';

  constructor(
    readonly service: ServiceName,
    private readonly env: Record<string, string>,
    private readonly logDir: string,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The file its output goes to, appended to across restarts. */
  get logFile(): string {
    return join(this.logDir, `${this.service}.log`);
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  // 45 s: on a slow two-core CI machine, with the other Jest worker's stack starting beside it, a gateway once
  // printed nothing for 20 s; a service that crashes is reported at its exit, so only a hang waits this long.
  start(timeoutMs = 45_000): Promise<void> {
    mkdirSync(this.logDir, { recursive: true });
    this.log = createWriteStream(this.logFile, { flags: 'a' });
    this.stderrTail = '';
    const child = fork(entryPoint(this.service), [], {
      // The harness's own flags too (the bench's --cpu-prof reaches the services this way).
      execArgv: [...process.execArgv, ...SERVICE_NODE_FLAGS],
      env: { PATH: process.env.PATH ?? '', ...compileCache(), ...this.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    mkdirSync(PID_DIR, { recursive: true });
    // The owner's pid: `npm test` reaps only services whose test process is gone, not another run's (tools/launcher/test.js).
    writeFileSync(join(PID_DIR, String(child.pid)), `${process.pid} ${this.service}`);
    child.once('exit', () => rmSync(join(PID_DIR, String(child.pid)), { force: true }));
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.log?.write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-2000);
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.service} not ready within ${timeoutMs} ms`)), timeoutMs);
      child.on('message', (message: { type?: string; port?: number; metricsPort?: number }) => {
        if (message?.type !== 'ready') return;
        clearTimeout(timer);
        this.port = message.port;
        this.metricsPort = message.metricsPort;
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${this.service} exited with code ${code} before it was ready: ${this.stderrTail.trim()}`));
      });
    });
  }

  /** Stops the process with `signal` (SIGKILL simulates a crash) and waits for it to be gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = ANSWER_DRAIN_MAX_MS + 10_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => {
      // A service that outlives SIGTERM hangs in production too (a rolling deployment waits for it); say so, and which log to read.
      if (signal !== 'SIGKILL') process.stderr.write(`${this.service} did not stop within ${timeoutMs} ms of ${signal}; killed (log: ${this.logFile})\n`);
      child.kill('SIGKILL');
    }, timeoutMs);
    await exited;
    clearTimeout(timer);
    this.log?.end();
  }
}

/** Whether a process with this pid exists (signal 0 checks without sending anything; EPERM: it exists, another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
