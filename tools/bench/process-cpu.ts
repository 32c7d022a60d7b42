import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import type { TestStack } from '@pp/testing';
import { type ServiceCost, type ServiceScrape, scrapeServices, serviceCostBetween } from './service-scrape';
import { idlePercentBetween, type MachineCpuTimes, readMachineCpuTimes } from './machine-idle';
import { LOAD_GROUP } from './report';
import { runQueueWaitBetween, threadRunQueueWaits, type ThreadWaits } from './run-queue-wait';

/**
 * CPU time of every process a path runs through, read from /proc/<pid>/stat
 * (utime + stime) before and after the path's load, so the report can say how
 * many CPU milliseconds each process spent per request. Write system calls
 * (`syscw` of /proc/<pid>/io: write, writev, send*) are counted the same way:
 * on loopback each one carries the kernel's TCP work for both ends and wakes
 * the process at the other end, so fewer of them per request is the first
 * thing batching or pipelining shows. Time waiting for a CPU (runnable, not
 * running: run-queue-wait.ts) is counted the same way: it is where queueing
 * for the cores and slow wake-ups show, time in no span of any trace.
 * Postgres, Redis and NATS are found by the port they listen on; for
 * Postgres only the backends of the bench's database and the server's own
 * workers (WAL writer, checkpointer ...) count, so other databases on a
 * shared server do not. Redis and NATS serve everything on this machine:
 * their figures include whatever else runs. The bench's own process is
 * sampled too (LOAD_GROUP), outside the total.
 */

/** CPU ms, write system calls and ms waiting for a CPU by process group name (each service, postgres, nats, redis) and pid. */
export type CpuSample = Map<string, Map<number, { ms: number; writes: number; waits: ThreadWaits }>>;
export type CpuPerRequest = Record<string, number>;

const TICK_MS = 1000 / clockTicks();

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** CPU ms (user + system) a process has spent since it started; undefined once it is gone. */
export function cpuMs(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

function writeSyscalls(pid: number): number {
  try {
    return Number(/^syscw: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The pid whose open sockets include the one listening on this TCP port on loopback or any address. */
function listenerPid(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A') continue; // 0A = LISTEN
      if (parseInt(cols[1].split(':')[1], 16) === port) inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

export class ProcessCpu {
  private readonly extra = new Map<string, number>();

  private constructor(
    private readonly stack: TestStack,
    private readonly pg: Client,
    private readonly postmaster: number | undefined,
    private readonly shared: Record<string, number | undefined>,
  ) {}

  static async start(stack: TestStack, urls: { postgres: string; nats: string; redis: string }): Promise<ProcessCpu> {
    const pg = new Client({ connectionString: stack.database.url });
    // The run's database is dropped as the stack stops, perhaps before this is closed (a run interrupted mid-path):
    // that ends the connection, which must not end the bench before its report is written. A read after it fails.
    pg.on('error', (error) => process.stderr.write(`bench: the CPU sampler's Postgres connection ended: ${error.message}\n`));
    await pg.connect();
    const portOf = (url: string, fallback: number) => Number(new URL(url).port || fallback);
    return new ProcessCpu(stack, pg, listenerPid(portOf(urls.postgres, 5432)), {
      nats: listenerPid(portOf(urls.nats, 4222)),
      redis: listenerPid(portOf(urls.redis, 6379)),
    });
  }

  /** Whether the infrastructure's processes were found (reading other users' /proc/<pid>/fd needs the same user or root). */
  found(): Record<string, boolean> {
    return { postgres: this.postmaster !== undefined, nats: this.shared.nats !== undefined, redis: this.shared.redis !== undefined };
  }

  /** Each service's own metrics now (service-scrape.ts): its GC pauses and NATS messages so far. */
  scrapeServices(): Promise<ServiceScrape> {
    return scrapeServices(this.stack);
  }

  /** Also samples a process outside the stack (the baseline server), under this name. */
  track(group: string, pid: number): void {
    this.extra.set(group, pid);
  }

  /** The processes outside the stack tracked so far (the baseline, the floors' roles; gone ones included). */
  trackedPids(): number[] {
    return [...this.extra.values()];
  }

  async sample(): Promise<CpuSample> {
    const groups: CpuSample = new Map();
    const add = (group: string, pid: number | undefined) => {
      if (pid === undefined) return;
      const ms = cpuMs(pid);
      if (ms === undefined) return;
      if (!groups.has(group)) groups.set(group, new Map());
      groups.get(group)?.set(pid, { ms, writes: writeSyscalls(pid), waits: threadRunQueueWaits(pid) });
    };
    for (const proc of this.stack.processes()) add(proc.service, proc.pid);
    for (const [group, pid] of this.extra) add(group, pid);
    add(LOAD_GROUP, process.pid);
    // This database's backends and the server's own workers (no database); never other databases' backends.
    const { rows } = await this.pg.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE (datname = current_database() OR datname IS NULL) AND pid <> pg_backend_pid()',
    );
    add('postgres', this.postmaster);
    for (const row of rows) add('postgres', row.pid);
    for (const [group, pid] of Object.entries(this.shared)) add(group, pid);
    return groups;
  }

  /**
   * CPU ms, write system calls or ms waiting for a CPU per unit of work of
   * each group between two samples; a process that appeared in between counts
   * from zero. The total is the stack's: the load generator is left out.
   */
  static perRequest(before: CpuSample, after: CpuSample, requests: number, measure: 'ms' | 'writes' | 'waits'): CpuPerRequest {
    const result: CpuPerRequest = {};
    let total = 0;
    for (const [group, pids] of after) {
      let spent = 0;
      for (const [pid, sample] of pids) {
        const earlier = before.get(group)?.get(pid);
        spent += measure === 'waits' ? runQueueWaitBetween(earlier?.waits, sample.waits) : sample[measure] - (earlier?.[measure] ?? 0);
      }
      const perRequest = requests > 0 ? spent / requests : 0;
      result[group] = round(perRequest);
      if (group !== LOAD_GROUP) total += perRequest;
    }
    result.total = round(total);
    return result;
  }

  async close(): Promise<void> {
    await this.pg.end();
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** What a path cost each process per request: CPU ms, write system calls and ms waiting for a CPU; each service's GC pauses and NATS messages. */
export interface PathCost extends Partial<ServiceCost> {
  cpu_ms_per_request: CpuPerRequest;
  writes_per_request: CpuPerRequest;
  cpu_wait_ms_per_request: CpuPerRequest;
  /** The machine's cores idle while the path was timed (not over the settle after it), in per cent. */
  cores_idle_percent?: number;
  /** From the first CPU sample to the last, in µs on the monotonic clock the CPU profiles use (profile-summary.ts). */
  profile_window_us?: [number, number];
}

/** Now in µs on the monotonic clock, the one V8 stamps a .cpuprofile's samples with. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

export function costPerRequest(before: CpuSample, after: CpuSample, requests: number): PathCost {
  return {
    cpu_ms_per_request: ProcessCpu.perRequest(before, after, requests, 'ms'),
    writes_per_request: ProcessCpu.perRequest(before, after, requests, 'writes'),
    cpu_wait_ms_per_request: ProcessCpu.perRequest(before, after, requests, 'waits'),
  };
}

/** What the work a path's requests left behind (outbox publishing, projections, webhooks) gets after its timed work: counted as theirs. */
export const SETTLE_AFTER_WINDOW_MS = 1000;

/**
 * One path's CPU window, the same for every path: each service's metrics scraped (outside the CPU samples, so
 * that rendering them is not counted as the path's work), every process's CPU sampled, the monotonic clock and
 * the machine's CPU times read; then the path's timed work; the machine's times read again (the cores left idle:
 * the timed work only); SETTLE_AFTER_WINDOW_MS for what the requests left behind; the clock read, the CPU
 * sampled and the metrics scraped again.
 */
export class CpuWindow {
  private coresIdle: number | undefined;

  private constructor(
    private readonly cpu: Pick<ProcessCpu, 'sample' | 'scrapeServices'>,
    private readonly scrapedBefore: ServiceScrape,
    private readonly before: CpuSample,
    private readonly from: number,
    private readonly machineBefore: MachineCpuTimes,
    private readonly settleMs: number,
  ) {}

  /**
   * `atFirstSample` runs right after the first CPU sample, before anything else is awaited: a path whose work is
   * already under way as the window opens (the fan-out's deliveries) counts its work done from there, or the work
   * done while the metrics were scraped would divide CPU the window never saw.
   */
  static async open(
    cpu: Pick<ProcessCpu, 'sample' | 'scrapeServices'>,
    { settleMs = SETTLE_AFTER_WINDOW_MS, atFirstSample }: { settleMs?: number; atFirstSample?: () => void } = {},
  ): Promise<CpuWindow> {
    const scrapedBefore = await cpu.scrapeServices();
    const before = await cpu.sample();
    atFirstSample?.();
    return new CpuWindow(cpu, scrapedBefore, before, monotonicUs(), readMachineCpuTimes(), settleMs);
  }

  /** The timed work is over: the cores left idle are read from the opening to now (the first call counts; close() calls it when nothing did). */
  endTiming(): void {
    this.coresIdle ??= idlePercentBetween(this.machineBefore, readMachineCpuTimes());
  }

  /**
   * After the settle, each process's cost per request, `requests` (or what it returns, read after the last CPU
   * sample) dividing. With no settle (`settleMs` 0) the CPU is sampled at once, without yielding to a timer first.
   */
  async close(requests: number | (() => number)): Promise<PathCost> {
    this.endTiming();
    if (this.settleMs > 0) await new Promise((resolve) => setTimeout(resolve, this.settleMs));
    const window: [number, number] = [this.from, monotonicUs()];
    const after = await this.cpu.sample();
    const scrapedAfter = await this.cpu.scrapeServices();
    const count = typeof requests === 'number' ? requests : requests();
    return {
      ...costPerRequest(this.before, after, count),
      ...serviceCostBetween(this.scrapedBefore, scrapedAfter, count),
      cores_idle_percent: this.coresIdle,
      profile_window_us: window,
    };
  }
}

/** Runs `work` in a CPU window (CpuWindow), returning its result with the cost per request of each process (counted by `requestsOf`). */
export async function withCpu<T>(cpu: ProcessCpu, work: () => Promise<T>, requestsOf: (result: T) => number): Promise<{ result: T } & PathCost> {
  const window = await CpuWindow.open(cpu);
  const result = await work();
  return { result, ...(await window.close(requestsOf(result))) };
}
