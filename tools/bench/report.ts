import type { RssReading } from './idle-rss';
import type { SpanTiming } from './latency-breakdown';
import type { QuietWait } from './quiet-wait';
import type { TailComposition } from './tail-composition';
import type { WakeCost } from './wake-cost';
/** The JSON report `npm run bench` writes (bench/reports/*.json) and how it is printed. */

export interface Row {
  /** Stable across reports and settings, where the name may carry a setting (row-keys.ts); older reports have none. */
  key?: string;
  path: string;
  /** Printed figure with its unit ("465 req/s", "512 msg/s", "104 MB"). */
  throughput: string;
  p50_ms: number | null;
  p99_ms: number | null;
  /** The slowest answer, for the rows timed answer by answer (the paced create rows, the webhook row). */
  max_ms?: number;
  baseline: string;
  ratio: string;
  /** CPU ms each process spent per request (or message, or delivery) of this path, and the stack's total (LOAD_GROUP is shown, not added). */
  cpu_ms_per_request?: Record<string, number>;
  /** Write system calls each process made per request (socket writes, mostly), and their total. */
  writes_per_request?: Record<string, number>;
  /** ms each process's threads spent per request runnable but waiting for a CPU (queueing for the cores), and their total. */
  cpu_wait_ms_per_request?: Record<string, number>;
  /** ms each service spent paused for garbage collection per request (gc-pauses.ts). */
  gc_ms_per_request?: Record<string, number>;
  /** Each service's garbage-collection pauses of 10 ms or more over the whole path. */
  gc_pauses_over_10ms?: Record<string, number>;
  /** Messages each service put on NATS per request (nats-traffic.ts). */
  nats_sent_per_request?: Record<string, number>;
  /** Messages NATS delivered to each service per request. */
  nats_received_per_request?: Record<string, number>;
  /**
   * The machine's cores idle while the path was timed, in per cent (machine-idle.ts): above a few, the path
   * is bound by something else than its CPU (how much work is in flight, a lock, a timer).
   */
  cores_idle_percent?: number;
  /** The path's CPU window in µs on the monotonic clock, for `--profile-summary` (process-cpu.ts). */
  profile_window_us?: [number, number];
  detail?: Record<string, unknown>;
  /** Set when the path failed (path-runner.ts): the error, and no figures. */
  error?: string;
}

export interface BenchReport {
  at: string;
  /** The Node.js that ran the bench, the baseline and every service (`BENCH_NODE=24`: the images' Node 24). */
  node?: string;
  seconds: number;
  warmup_seconds: number;
  connections: number;
  /** Every BENCH_* setting the run read, with the value it took (the default where unset; settings.ts). */
  settings?: Record<string, string>;
  /** Every BENCH_* variable of the environment as set, read or not. */
  bench_env?: Record<string, string>;
  /** Whether the CPU reader found each infrastructure process (process-cpu.ts): a missed one's CPU is in no figure. */
  cpu_processes_found?: Record<string, boolean>;
  /** 1, 5 and 15 minute load averages when the run ended: other work on the machine skews every figure. */
  load_average?: number[];
  /**
   * Each service's highest RSS over its readings in the first half minute after start, before any load: the
   * "idle RSS" target. Reports without `idle_rss_first_mb` hold one reading 3 s after start here.
   */
  idle_rss_mb?: Partial<Record<string, number>>;
  /** Each service's first of those readings, 3 s after start (what `idle_rss_mb` was before it took the highest). */
  idle_rss_first_mb?: Partial<Record<string, number>>;
  /** Every idle RSS reading, ms after the first moment the stack was ready. */
  idle_rss_readings?: RssReading[];
  /** The wait for the stack to go quiet before the idle CPU window (quiet-wait.ts). */
  idle_cpu_quiet_wait?: QuietWait;
  /** The same processes' RSS once every path has run and they have idled a few seconds again (no target). */
  rss_after_paths_mb?: Partial<Record<string, number>>;
  /** CPU ms each process spends per second while the stack is idle (withCpu counts its 1 s settle too). */
  idle_cpu_ms_per_second?: Record<string, number>;
  stack_ready_ms?: number;
  /** The machine's price for waking a process for short work (wake-cost.ts): read the paths below full load with it. */
  wake_cost?: WakeCost;
  rows: Row[];
  /** Set when the run stopped early (an error outside any path, or Ctrl-C or SIGTERM: "interrupted by SIGINT"): the report holds what was measured before it. */
  stopped_early?: string;
  /** With BENCH_TRACE=true: the median create-session trace at half of max load, span by span. */
  create_half_load_trace?: SpanTiming[];
  /** With BENCH_TRACE=true: the create-session trace at half of max load at the 99th percentile of lengths. */
  create_half_load_trace_p99?: SpanTiming[];
  /** With BENCH_TRACE=true: the slowest 1 % of those traces beside the median, stretch by stretch. */
  create_half_load_tail?: TailComposition;
  /** With BENCH_TRACE=true: the median simulate-payment → webhook trace, span by span. */
  webhook_trace?: SpanTiming[];
  /** With BENCH_TRACE=true: the slowest of those traces, span by span. */
  webhook_trace_slowest?: SpanTiming[];
  /** With BENCH_TRACE=true: the slowest 5 % of the webhook traces beside the median, stretch by stretch. */
  webhook_tail?: TailComposition;
}

/** Each process's cost per request that a row may carry, and its title in the printed tables, in their order. */
export const PER_REQUEST_MEASURES = [
  ['cpu_ms_per_request', 'CPU ms'],
  ['writes_per_request', 'Write system calls'],
  ['cpu_wait_ms_per_request', 'ms waiting for a CPU'],
  ['gc_ms_per_request', 'GC pause ms'],
  ['nats_sent_per_request', 'NATS messages sent'],
  ['nats_received_per_request', 'NATS messages received'],
] as const;

export function table(headers: string[], cells: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (values: string[]) => values.map((v, i) => (v ?? '').padEnd(widths[i])).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n') + '\n';
}

/**
 * The bench's own process: the load generator (autocannon, fetch, the
 * JetStream publisher) runs on the same cores as the stack, so what it spends
 * per request is CPU the stack could not have. Shown after the total, never
 * in it, so totals stay the stack's own and comparable with older reports.
 */
export const LOAD_GROUP = 'bench';

/** Process groups in a fixed order: services first, then the infrastructure, the total, then the load generator. */
export function cpuGroups(rows: Row[]): string[] {
  const order = ['baseline', 'floor edge', 'floor relay', 'floor store', 'gateway', 'sessions', 'ledger', 'ingest', 'refunds', 'webhooks', 'checkout', 'dashboard', 'postgres', 'nats', 'redis'];
  const seen = new Set(rows.flatMap((r) => Object.keys(r.cpu_ms_per_request ?? {})));
  // Processes that spent nothing on any path (an idle dashboard) only widen the table.
  const used = [...seen].filter((g) => g !== 'total' && rows.some((r) => (r.cpu_ms_per_request?.[g] ?? 0) >= 0.005));
  const stack = used.filter((g) => g !== LOAD_GROUP);
  return [...order.filter((g) => stack.includes(g)), ...stack.filter((g) => !order.includes(g)).sort(), 'total', ...(used.includes(LOAD_GROUP) ? [LOAD_GROUP] : [])];
}

/** A per-process figure a row may carry: each of PER_REQUEST_MEASURES, and the count of long GC pauses. */
export type PerProcessMeasure = (typeof PER_REQUEST_MEASURES)[number][0] | 'gc_pauses_over_10ms';

/** Those of `groups` that some row has a figure for in `measure` (GC pauses exist for the services only). */
export function groupsMeasured(groups: string[], rows: Row[], measure: PerProcessMeasure): string[] {
  return groups.filter((g) => rows.some((r) => r[measure]?.[g] !== undefined));
}

export function printRows(rows: Row[]): void {
  process.stdout.write('\n');
  process.stdout.write(
    table(
      ['path', 'throughput', 'p50 ms', 'p99 ms', 'max ms', 'baseline', 'ratio', 'cores idle'],
      rows.map((r) => [
        r.path,
        r.throughput,
        String(r.p50_ms ?? '-'),
        String(r.p99_ms ?? '-'),
        String(r.max_ms ?? '-'),
        r.baseline,
        r.ratio,
        r.cores_idle_percent === undefined ? '-' : `${r.cores_idle_percent} %`,
      ]),
    ),
  );
  const failed = rows.filter((r) => r.error !== undefined);
  if (failed.length > 0) process.stdout.write(`\nfailed paths (their error rows above):\n${failed.map((r) => `  ${r.path}: ${r.error}`).join('\n')}\n`);
  const measured = rows.filter((r) => r.cpu_ms_per_request);
  if (measured.length === 0) return;
  const groups = cpuGroups(measured);
  for (const [measure, title] of PER_REQUEST_MEASURES) {
    const shown = groupsMeasured(groups, measured, measure);
    const note = shown.includes(LOAD_GROUP) ? `; ${LOAD_GROUP}: the load generator, on the same cores, not in the total` : '';
    printProcessTable(`${title} per request (message, delivery) of each process${note}`, measured, measure, shown, fixed);
  }
  // The pauses a path's slowest answers are mostly made of (gc-pauses.ts).
  const longPauses = 'gc_pauses_over_10ms';
  printProcessTable('GC pauses of 10 ms or more during each path (count) of each service', measured, longPauses, groupsMeasured(groups, measured, longPauses), String);
}

function printProcessTable(heading: string, rows: Row[], measure: PerProcessMeasure, groups: string[], format: (value: number) => string): void {
  const counted = rows.filter((r) => r[measure]);
  if (counted.length === 0 || groups.length === 0) return;
  process.stdout.write(`\n${heading}\n`);
  process.stdout.write(table(['path', ...groups], counted.map((r) => [r.path, ...groups.map((g) => (r[measure]?.[g] === undefined ? '-' : format(r[measure][g])))])));
}

const fixed = (value: number) => value.toFixed(2);
