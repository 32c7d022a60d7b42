import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@pp/contracts';
import { IDLE_MEMORY_POLICY } from '@pp/platform';
import { type CollectedSpan, OtlpCollector, REPO_ROOT, TestStack, testDkimKey, writeDnsOverrides } from '@pp/testing';
import { createMerchant, gatewayApi } from './api';
import { forkBaselineServer } from './baseline-server';
import { CHAIN_WARMUP_MESSAGES, measureIngestThroughput, warmIngestChain } from './ingest-throughput';
import { interleavedRatio, medianRate } from './interleaved-ratio';
import { latencyBreakdown, printBreakdown, traceAtQuantile, type SpanTiming } from './latency-breakdown';
import { printTailComposition, type TailComposition, tailComposition } from './tail-composition';
import { type LoadResult, pacedLoad, postLoad } from './load';
import { measureIdleMemory, sampleIdleMemory, waitUntilStackQuiet } from './memory';
import { NO_ANSWER } from './not-accepted';
import { Interrupted, Interruption } from './interruption';
import { errorText, PathRunner } from './path-runner';
import { type CpuPerRequest, type PathCost, ProcessCpu, withCpu } from './process-cpu';
import { quietDetail, type QuietWait } from './quiet-wait';
import { sweepRates } from './rate-sweep';
import { type BenchReport, type Row, printRows } from './report';
import { rssReadingOffsets, type RssReading } from './idle-rss';
import { sweepRowKey } from './row-keys';
import { BENCH_PATHS, benchEnvironment, benchPaths, BenchSettings } from './settings';
import { checkBaselineAnswered, notCountedWarning } from './success-counts';
import { largestOrNull, ratioText, withUnit } from './empty-figures';
import type { FloorFramework } from './floor-parts';
import { forkTopologyFloor } from './topology-floor';
import { readNamedProfiles, summarizeProfiles } from './profile-summary';
import { measureWebhookFanout } from './webhook-fanout';
import { measureWakeCost, type WakeCost } from './wake-cost';
import { measureWebhookLatency } from './webhook-latency';
import { onWebhookPath, timedWebhookTraces } from './webhook-traces';
import { WEBHOOK_LATENCY_PATH, webhookLatencyRow } from './webhook-latency-row';

/**
 * `npm run bench` (PRODUCT-RULES §D6): measures each path side by side with its
 * baseline in one run on this machine, with the CPU milliseconds each process
 * spent per request, prints a table and writes a JSON report to bench/reports/
 * (`npm run bench -- --compare A.json B.json` prints the difference of two).
 * Figures only; nothing here is a pass/fail test.
 *
 * BENCH_PATHS=create,webhook,ingest,fanout runs only some paths (the idle
 * memory and stack start are always measured); BENCH_SWEEP=50,200,… adds a
 * paced create-session row at each of those rates (rate-sweep.ts);
 * BENCH_PROFILE=true runs every service under `node --cpu-prof`
 * (tools/launcher/bench.js passes the flag, and the services inherit it),
 * its profile written to bench/profiles/ when the stack stops.
 *
 * A path that fails is an error row in the report (path-runner.ts) and the
 * others still run; the report is written however the run ends, and the exit
 * code is non-zero when a path failed or the run stopped early. Ctrl-C or
 * SIGTERM stops the run where it is: the stack is stopped and the report
 * written (`stopped_early: "interrupted by SIGINT"`), then the bench exits
 * with 130 or 143; a second signal exits at once (interruption.ts).
 */

/**
 * Every BENCH_* setting is read through this, so the report records what the run used (settings.ts); each is
 * checked as it is read, before the stack starts, so a typo fails at once.
 */
const SETTINGS = new BenchSettings(process.env);
const SECONDS = SETTINGS.number('BENCH_SECONDS', 10, { min: 1 });
const CONNECTIONS = SETTINGS.number('BENCH_CONNECTIONS', 50, { min: 1 });
/**
 * Load before each measured path (baseline included), so both are measured
 * with their code optimised by the JIT rather than while it compiles: the
 * services run much more JavaScript per request than the baseline, and their
 * first seconds under load cost up to twice as much CPU per request.
 */
const WARMUP_SECONDS = SETTINGS.number('BENCH_WARMUP_SECONDS', 10);
const WEBHOOK_PAYMENTS = SETTINGS.number('BENCH_WEBHOOK_PAYMENTS', 200, { min: 1 });
/** A pause before each of those payments: 11000 with 14 payments times them as sparse traffic would (docs/PERFORMANCE.md, "Pools that idle out"). */
const WEBHOOK_GAP_MS = SETTINGS.number('BENCH_WEBHOOK_GAP_MS', 0);
const INGEST_MESSAGES = SETTINGS.number('BENCH_INGEST_MESSAGES', 1000, { min: 1 });
/** Notices in flight at once, each way (ingest-throughput.ts). */
const INGEST_CONCURRENCY = SETTINGS.number('BENCH_INGEST_CONCURRENCY', 32, { min: 1 });
/**
 * 1,000 payments × 2 events × 4 endpoints: 8,000 deliveries, a few seconds of work off. With 300 the backlog
 * lasted about a second, much of it the ramp (connections, the first claims), and runs of the same code spread by a fifth.
 */
const FANOUT_PAYMENTS = SETTINGS.number('BENCH_FANOUT_PAYMENTS', 1000, { min: 1 });
const FANOUT_ENDPOINTS = SETTINGS.number('BENCH_FANOUT_ENDPOINTS', 4, { min: 1 });
const IDLE_CPU_SECONDS = 4;
/**
 * The idle RSS: each service read every 3 s from 3 s after the stack is ready (the one reading the bench used to
 * take) to 30 s, the highest reading kept (idle-rss.ts). The idle CPU window runs meanwhile.
 */
const IDLE_RSS_FIRST_MS = 3000;
const IDLE_RSS_SPAN_MS = 30_000;
const IDLE_RSS_EVERY_MS = 3000;
/**
 * How long the stack idles, once quiet after the paths, before their RSS is read: each
 * service's idle-memory watch gives back what the load left once it has been
 * quiet 10 s (looked at every 2.5 s: libs/platform/src/memory), the ingest
 * stops worker threads idle for 10 s (INGEST_WORKER_IDLE_MS), and V8 unmaps
 * the stopped workers' pages about 7.5 s later (measured on Node 24: 268 MB
 * until 7.5 s, 174 at 12.5-15 s, 145 from 17.5 s on).
 */
const SETTLE_AFTER_PATHS_MS = IDLE_MEMORY_POLICY.quietForMs + 2 * IDLE_MEMORY_POLICY.lookEveryMs + 5_000;
/** Longest wait for the stack to go quiet after the paths, before that settle starts (memory.ts). */
const STACK_QUIET_MAX_MS = 30_000;
/**
 * Longest wait for the stack to go quiet before each measured window (settle below): long enough for what a
 * max-load window leaves (publication, projections), short enough that a stack that never goes quiet costs a
 * run little; a window that starts before it is quiet says so in its detail and on stderr.
 */
const WINDOW_QUIET_MAX_MS = 15_000;
/** Extra create-session rows at these paced rates (rate-sweep.ts); read before the stack starts, so a typo fails at once. */
const SWEEP_RATES = sweepRates(SETTINGS.text('BENCH_SWEEP', ''));
/** The paths to run; a name that is none of them fails at once (settings.ts). */
const PATHS = benchPaths(SETTINGS.text('BENCH_PATHS', BENCH_PATHS.join(',')));
const PROFILE_DIR = join(REPO_ROOT, 'bench', 'profiles');
/**
 * BENCH_TRACE=true: every service exports its spans to a collector in the
 * bench, and the report gets the median create-session trace at half of max
 * load and the one at its p99, and the median and slowest simulate-payment →
 * webhook traces, span by span (where the latency goes). Exporting costs CPU: compare such runs
 * only with each other.
 */
const TRACE = SETTINGS.flag('BENCH_TRACE');
const PROFILE = SETTINGS.flag('BENCH_PROFILE');
// Read by tools/launcher/bench.js (which Node runs the bench and the stack); recorded here beside the Node it gave.
SETTINGS.text('BENCH_NODE', 'unset');

const sessionBody = () => ({
  amount: 2500,
  currency: 'cad',
  reference: `bench-${randomUUID()}`,
  success_url: 'https://merchant.example/thanks',
  cancel_url: 'https://merchant.example/cart',
  metadata: { order: '1001' },
});

const log = (text: string) => process.stderr.write(`bench: ${text}\n`);
/** How far the second baseline may land from the first before the bench says the machine changed speed. */
const BASELINE_DRIFT_WARNING = 0.2;
/** The interleaved create ratio's rounds (a chain window and a baseline window each; 0 leaves the row out) and their windows' length. */
const INTERLEAVE_ROUNDS = SETTINGS.number('BENCH_INTERLEAVE_ROUNDS', 5);
const INTERLEAVE_SECONDS = SETTINGS.number('BENCH_INTERLEAVE_SECONDS', 3, { min: 1 });

/**
 * Waits (bounded) for the stack to finish what the last load left before a window is timed (quiet-wait.ts),
 * so that work lands in no other path's window; the baseline's and the floors' processes count too.
 */
async function settle(stack: TestStack, cpu: ProcessCpu, before: string): Promise<QuietWait> {
  const wait = await waitUntilStackQuiet(stack, WINDOW_QUIET_MAX_MS, () => cpu.trackedPids());
  if (!wait.quiet) log(`warning: the stack was still busy after ${(wait.waited_ms / 1000).toFixed(0)} s of waiting; ${before} is measured anyway`);
  return wait;
}

/** Prints a warning when a path had answers or outcomes its rate leaves out (success-counts.ts). */
function warnNotCounted(what: string, others: Record<string, number>): void {
  const warning = notCountedWarning(what, others);
  if (warning) log(warning);
}

/** Ctrl-C or SIGTERM: the run stops the stack and writes its report, then exits with 130 or 143 (interruption.ts). */
const interruption = new Interruption(process, log);

async function main(): Promise<void> {
  const runner = new PathRunner(log);
  // The path under way goes on unawaited while the stack stops: it adds no row, and no path starts after it.
  interruption.onInterrupt((reason) => runner.stop(reason));
  const rows = runner.rows;
  const profile = PROFILE;
  if (profile) mkdirSync(PROFILE_DIR, { recursive: true });
  let collector: OtlpCollector | undefined;
  let wakeCost: WakeCost | undefined;
  let readyMs: number | undefined;
  let webhookTrace: TraceBreakdown | undefined;
  let halfLoadTrace: TraceBreakdown | undefined;
  let idleRss: Partial<Record<string, number>> = {};
  let idleRssFirst: Partial<Record<string, number>> = {};
  let idleRssReadings: RssReading[] = [];
  let idleCpu: CpuPerRequest = {};
  let idleCpuQuietWait: QuietWait | undefined;
  let cpuFound: Record<string, boolean> | undefined;
  let rssAfterPaths: Partial<Record<string, number>> | undefined;
  /** Set when an error outside any path, or a signal, stopped the run: the report is written all the same, with what was measured. */
  let stoppedEarly: unknown;
  try {
    collector = TRACE ? await OtlpCollector.start() : undefined;
    log('the machine\'s wake-up cost (a short piece of work, back to back and 1 ms apart)');
    wakeCost = await interruption.race(measureWakeCost());
    const readyStarted = Date.now();
    // Not raced: abandoned while it starts, the stack would keep the services it started; a signal is acted on once it is up.
    const stack = await TestStack.start({
      services: SERVICE_NAMES,
      label: 'bench',
      // Eight services starting at once on a shared machine may take longer than a test allows.
      startTimeoutMs: 90_000,
      env: {
        LOG_LEVEL: 'warn',
        RATE_LIMIT_TEST_PER_SECOND: '100000',
        RATE_LIMIT_LIVE_PER_SECOND: '100000',
        INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()),
        ...(collector ? { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100' } : {}),
      },
    });
    readyMs = Date.now() - readyStarted;
    // The fan-out path restarts the webhooks service: its profiles are named from both processes.
    const services = new Map(stack.processes().map((proc) => [proc.pid, proc.service]));
    try {
      // A signal during the start (not raced, above) stops the run here, the stack stopped below.
      interruption.throwIfInterrupted();
      // Raced: at a signal the run goes on to stopping the stack and writing the report, the path under way left
      // unawaited; the runner stops it at its next path (interruption.ts, path-runner.ts).
      await interruption.race(
        (async () => {
          // Read over the next half minute while the idle CPU is measured, so that most of it is not added to the run.
          const idleRssSampling = sampleIdleMemory(stack, rssReadingOffsets(IDLE_RSS_FIRST_MS, IDLE_RSS_SPAN_MS, IDLE_RSS_EVERY_MS));
          idleRssSampling.catch(() => undefined); // awaited below; should the bench fail before then, not a second time as unhandled
          const cpu = await ProcessCpu.start(stack, { postgres: stack.database.url, nats: stack.env.NATS_URL, redis: stack.env.REDIS_URL });
          cpuFound = cpu.found();
          const missing = Object.entries(cpuFound).filter(([, found]) => !found);
          if (missing.length > 0) log(`no process found for ${missing.map(([name]) => name).join(', ')}: their CPU is not reported`);
          try {
            // What each process spends doing nothing (timers, polls, health checks): paths with few requests per second carry it.
            idleCpuQuietWait = await settle(stack, cpu, 'the idle CPU window');
            idleCpu = (await withCpu(cpu, () => new Promise((resolve) => setTimeout(resolve, IDLE_CPU_SECONDS * 1000)), () => IDLE_CPU_SECONDS + 1)).cpu_ms_per_request;
            log(`idle RSS: each service read every ${IDLE_RSS_EVERY_MS / 1000} s until ${IDLE_RSS_SPAN_MS / 1000} s after the stack was ready`);
            const idleRssSamples = await idleRssSampling;
            [idleRss, idleRssFirst, idleRssReadings] = [idleRssSamples.highest_mb, idleRssSamples.first_mb, idleRssSamples.readings];
            runner.add({
              key: 'idle-rss',
              path: 'idle RSS, largest service',
              // No service read (none answered): "-", not the -Infinity of a largest of nothing.
              throughput: withUnit(largestOrNull(Object.values(idleRss)), 'MB'),
              p50_ms: null,
              p99_ms: null,
              baseline: '≤ 120 MB target',
              ratio: '-',
              detail: {
                rss_mb: idleRss,
                first_reading_mb: idleRssFirst,
                first_reading_largest_mb: largestOrNull(Object.values(idleRssFirst)),
                readings: idleRssReadings.length,
                reading_every_ms: IDLE_RSS_EVERY_MS,
              },
            });
            runner.add({ key: 'stack-ready', path: 'stack ready after start', throughput: `${(readyMs / 1000).toFixed(1)} s`, p50_ms: null, p99_ms: null, baseline: '≤ 15 s target', ratio: '-' });

            const rowsBeforePaths = rows.length;
            const merchant = await createMerchant(stack.url('gateway'), stack.env.ADMIN_TOKEN, 'Bench Merchant');
            const testKey = merchant.keys.test_secret;
            // Each path through the runner: one that throws is an error row, and the next one runs (path-runner.ts).
            if (PATHS.has('create')) {
              await runner.run('create', 'create session paths', async () => {
                halfLoadTrace = await createSessionPaths(stack, cpu, testKey, runner, collector);
              });
            }
            if (PATHS.has('webhook')) {
              await runner.run('webhook-latency', WEBHOOK_LATENCY_PATH, async () => {
                const pacing = WEBHOOK_GAP_MS > 0 ? `, ${WEBHOOK_GAP_MS} ms apart` : '';
                log(`simulate-payment → signed webhook at a local receiver (${WEBHOOK_PAYMENTS} payments, one at a time${pacing})`);
                const quiet = await settle(stack, cpu, 'the webhook path');
                const measured = await withCpu(
                  cpu,
                  () => measureWebhookLatency(stack.url('gateway'), testKey, WEBHOOK_PAYMENTS, { gapMs: WEBHOOK_GAP_MS }),
                  // The warm-up payments are in the CPU window too, and cost as the timed ones do.
                  (r) => r.samples + r.warmup_payments,
                );
                const { row, warning } = webhookLatencyRow({ ...measured, quiet }, WEBHOOK_GAP_MS);
                if (warning) log(warning);
                runner.add(row);
                // A path of its own: should reading the traces fail, that is an error row under its own key, not a
                // second webhook-latency row after the measured one (--compare matches rows by key).
                const tracing = collector;
                if (tracing) {
                  await runner.run('webhook-trace', 'simulate-payment → webhook traces (BENCH_TRACE)', async () => {
                    webhookTrace = await webhookTraceOf(tracing, measured.result.timed_event_ids);
                  });
                }
              });
            }
            if (PATHS.has('ingest')) {
              const ways = [
                { way: 'http', key: 'ingest-http', path: 'live e-mail ingest (authenticate, parse, match, confirm)', sent: 'posted to the gateway' },
                { way: 'jetstream', key: 'ingest-jetstream', path: 'live e-mail ingest from JetStream (the mail pipeline)', sent: 'published to JetStream' },
              ] as const;
              // Once, before the first way; should it fail, each way fails with its error (a cold chain is not the path measured).
              let chainWarmed: Promise<void> | undefined;
              const warmChain = () => {
                if (!chainWarmed) log(`ingest chain warm-up: ${CHAIN_WARMUP_MESSAGES} DKIM-signed notices posted, untimed`);
                return (chainWarmed ??= warmIngestChain(stack, CHAIN_WARMUP_MESSAGES, INGEST_CONCURRENCY));
              };
              for (const { way, key, path, sent } of ways) {
                await runner.run(key, path, async () => {
                  await warmChain();
                  log(`${path}: ${INGEST_MESSAGES} DKIM-signed notices for live sessions, ${sent}`);
                  const measured = await measureIngestThroughput(stack, cpu, INGEST_MESSAGES, way, INGEST_CONCURRENCY, { settle: () => settle(stack, cpu, path) });
                  const { result: { quiet_wait: quiet, ...result }, ...cost } = measured;
                  const dispositions = Object.fromEntries(Object.entries(result.other_dispositions).map(([disposition, n]) => [`handed off as ${disposition}`, n]));
                  const notAccepted = Object.entries(result.not_accepted);
                  const refused = notAccepted.reduce((total, [, n]) => total + n, 0);
                  warnNotCounted(path, {
                    ...Object.fromEntries(notAccepted.map(([status, n]) => [status === NO_ANSWER ? 'posts with no answer' : `posts answered ${status}`, n])),
                    ...dispositions,
                    'not handed off in time': Math.max(0, INGEST_MESSAGES - refused - result.messages),
                  });
                  runner.add({
                    key,
                    path,
                    throughput: `${result.messages_per_second} msg/s`,
                    p50_ms: null,
                    p99_ms: null,
                    baseline: '≥ 500 msg/s target',
                    ratio: '-',
                    ...cost,
                    detail: {
                      ...result,
                      ...(quiet ? quietDetail(quiet) : {}),
                      cpu_counts: `from the first notice ${sent} to the last hand-off, plus 1 s, per message (session creation and signing excluded)`,
                    },
                  });
                });
              }
            }
            if (PATHS.has('fanout')) {
              const path = `webhook fan-out (${FANOUT_ENDPOINTS} endpoints)`;
              await runner.run('webhook-fanout', path, async () => {
                log(`webhook fan-out: a backlog of ${FANOUT_PAYMENTS} payments × 2 events × ${FANOUT_ENDPOINTS} endpoints`);
                const api = gatewayApi(stack.url('gateway'), testKey);
                const measured = await measureWebhookFanout(stack, api, cpu, FANOUT_PAYMENTS, FANOUT_ENDPOINTS, { settle: () => settle(stack, cpu, path) });
                const { result: { quiet_wait: quiet, ...result }, ...cost } = measured;
                warnNotCounted(path, { 'expected deliveries not received verified': result.expected_deliveries - result.verified_deliveries, 'attempts that did not verify': result.unverified });
                runner.add({
                  key: 'webhook-fanout',
                  path,
                  throughput: `${result.deliveries_per_second} deliveries/s`,
                  p50_ms: null,
                  p99_ms: null,
                  baseline: '≥ 2,000 deliveries/s target',
                  ratio: '-',
                  ...cost,
                  detail: {
                    ...result,
                    ...(quiet ? quietDetail(quiet) : {}),
                    cpu_counts: 'the deliveries of a backlog, per delivery (webhooks started after the payments were simulated)',
                  },
                });
              });
            }
            // The idle RSS above is a fresh start's; this is what the same processes hold once the load has passed and they
            // have been quiet long enough to give memory back.
            if (rows.length > rowsBeforePaths) {
              const waited = await waitUntilStackQuiet(stack, STACK_QUIET_MAX_MS, () => cpu.trackedPids());
              log(`stack ${waited.quiet ? 'quiet' : 'still busy'} ${(waited.waited_ms / 1000).toFixed(0)} s after the last path; RSS read ${SETTLE_AFTER_PATHS_MS / 1000} s later`);
              rssAfterPaths = await measureIdleMemory(stack, SETTLE_AFTER_PATHS_MS);
            }
          } finally {
            await cpu.close();
          }
        })(),
      );
    } finally {
      for (const proc of stack.processes()) services.set(proc.pid, proc.service);
      await stack.stop();
      if (profile) nameProfiles(services);
    }
  } catch (error) {
    stoppedEarly = error;
    throw error;
  } finally {
    // Whatever was measured, however the run ended: a failure an hour in keeps the rows before it. Written before
    // anything else is closed, so that a failure to close cannot lose it.
    try {
      const report = writeReport({
        cpuFound,
        idleRss,
        idleRssFirst,
        idleRssReadings,
        idleCpuQuietWait,
        rssAfterPaths,
        idleCpu,
        readyMs,
        wakeCost,
        rows,
        halfLoadTrace,
        webhookTrace,
        ...(stoppedEarly !== undefined ? { stoppedEarly: errorText(stoppedEarly) } : {}),
      });
      if (profile) {
        process.stdout.write(`profiles: ${PROFILE_DIR} (open in Chrome DevTools → Performance, or speedscope)\n`);
        process.stdout.write(`\nwhere each service's busy samples went in each path, by the project's folders (profile-summary.ts)\n`);
        process.stdout.write(summarizeProfiles(report, readNamedProfiles(PROFILE_DIR)));
      }
    } catch (error) {
      log(`could not print or write the report: ${errorText(error, { stack: true })}`);
      process.exitCode = 1;
    }
    try {
      await collector?.close();
    } catch (error) {
      log(`could not close the trace collector: ${errorText(error, { stack: true })}`);
      process.exitCode = 1;
    }
  }
  if (runner.failures.length > 0) {
    log(`${runner.failures.length} path(s) failed: ${runner.failures.map((failure) => failure.key).join(', ')} (error rows in the report)`);
    process.exitCode = 1;
  }
}

/** What a run measured, for its report (some of it missing when it stopped early). */
interface Measured {
  cpuFound?: Record<string, boolean>;
  idleRss: Partial<Record<string, number>>;
  idleRssFirst: Partial<Record<string, number>>;
  idleRssReadings: RssReading[];
  idleCpuQuietWait?: QuietWait;
  rssAfterPaths?: Partial<Record<string, number>>;
  idleCpu: CpuPerRequest;
  readyMs?: number;
  wakeCost?: WakeCost;
  rows: Row[];
  halfLoadTrace?: TraceBreakdown;
  webhookTrace?: TraceBreakdown;
  stoppedEarly?: string;
}

/** Prints the tables and writes the JSON report to bench/reports/; the report. */
function writeReport(m: Measured): BenchReport {
  printRows(m.rows);
  if (m.halfLoadTrace) {
    printBreakdown('create session at half of max load, the median trace (BENCH_TRACE)', m.halfLoadTrace.median);
    printBreakdown('create session at half of max load, the trace at p99 (BENCH_TRACE)', m.halfLoadTrace.tail);
    printTailComposition('create session at half of max load, where the slowest 1 % spend their time (BENCH_TRACE)', m.halfLoadTrace.tailComposition);
  }
  if (m.webhookTrace) {
    printBreakdown('simulate-payment → webhook, the median trace (BENCH_TRACE)', m.webhookTrace.median);
    printBreakdown('simulate-payment → webhook, the slowest trace (BENCH_TRACE)', m.webhookTrace.tail);
    printTailComposition('simulate-payment → webhook, where the slowest 5 % spend their time (BENCH_TRACE)', m.webhookTrace.tailComposition);
  }
  process.stdout.write(`\nidle CPU ms per second: ${Object.entries(m.idleCpu).map(([group, ms]) => `${group} ${ms.toFixed(1)}`).join(', ')}\n`);
  if (m.rssAfterPaths) {
    process.stdout.write(`RSS MB after the paths, idle again: ${Object.entries(m.rssAfterPaths).map(([service, mb]) => `${service} ${mb}`).join(', ')}\n`);
  }
  if (m.wakeCost) {
    process.stdout.write(
      `machine wake-up cost: a message's work took ${m.wakeCost.back_to_back_us} µs of CPU back to back, ${m.wakeCost.one_ms_apart_us} µs 1 ms apart (${m.wakeCost.ratio}x), after waiting ${m.wakeCost.one_ms_apart_wait_us} µs for a CPU; paths below full load pay this at every hop\n`,
    );
  }
  const dir = join(REPO_ROOT, 'bench', 'reports');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const report: BenchReport = {
    at: new Date().toISOString(),
    node: process.version,
    seconds: SECONDS,
    warmup_seconds: WARMUP_SECONDS,
    connections: CONNECTIONS,
    settings: SETTINGS.recorded(),
    bench_env: benchEnvironment(process.env),
    ...(m.cpuFound ? { cpu_processes_found: m.cpuFound } : {}),
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    idle_rss_mb: m.idleRss,
    idle_rss_first_mb: m.idleRssFirst,
    idle_rss_readings: m.idleRssReadings,
    ...(m.idleCpuQuietWait ? { idle_cpu_quiet_wait: m.idleCpuQuietWait } : {}),
    ...(m.rssAfterPaths ? { rss_after_paths_mb: m.rssAfterPaths } : {}),
    idle_cpu_ms_per_second: m.idleCpu,
    ...(m.readyMs !== undefined ? { stack_ready_ms: m.readyMs } : {}),
    ...(m.wakeCost ? { wake_cost: m.wakeCost } : {}),
    rows: m.rows,
    ...(m.stoppedEarly !== undefined ? { stopped_early: m.stoppedEarly } : {}),
    ...(m.halfLoadTrace
      ? {
          create_half_load_trace: m.halfLoadTrace.median,
          create_half_load_trace_p99: m.halfLoadTrace.tail,
          create_half_load_tail: m.halfLoadTrace.tailComposition,
        }
      : {}),
    ...(m.webhookTrace ? { webhook_trace: m.webhookTrace.median, webhook_trace_slowest: m.webhookTrace.tail, webhook_tail: m.webhookTrace.tailComposition } : {}),
  };
  writeFileSync(file, JSON.stringify(report, null, 2));
  process.stdout.write(`\nreport: ${file}${m.stoppedEarly !== undefined ? ` (the run stopped early: ${m.stoppedEarly})` : ''}\n`);
  return report;
}

/**
 * CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile → <service>.<pid>.<thread>.cpuprofile, so each profile
 * says whose it is (thread 0 is the main thread; the ingest's parsing and DKIM workers write their own).
 */
function nameProfiles(services: Map<number | undefined, string>): void {
  for (const file of readdirSync(PROFILE_DIR)) {
    const [, pid, thread] = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\./.exec(file) ?? [];
    const service = services.get(Number(pid));
    if (service) renameSync(join(PROFILE_DIR, file), join(PROFILE_DIR, `${service}.${pid}.${thread}.cpuprofile`));
  }
}

/**
 * The traces of the webhook path's timed payments (the warm-up's left out, as from its latencies: webhook-traces.ts;
 * spans arrive in batches: wait for them): the median timeline, and the slowest trace's own.
 */
async function webhookTraceOf(collector: OtlpCollector, timedEventIds: readonly string[]): Promise<TraceBreakdown> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return breakdownOf(collector.spans, timedWebhookTraces(collector.spans, timedEventIds), 1, { from: WEBHOOK_TAIL_QUANTILE, onPath: onWebhookPath });
}

/** Where the time of some traces went: their median timeline, the timeline of one trace from their tail, and what the tail is made of. */
interface TraceBreakdown {
  median: SpanTiming[];
  tail: SpanTiming[];
  tailComposition: TailComposition;
}

/** 200 webhook traces: their slowest 5 % are 10, where 1 % would be 2. */
const WEBHOOK_TAIL_QUANTILE = 0.95;

/**
 * The median timeline of `traces`, the timeline of the one at quantile `q` of their lengths, and stretch by stretch
 * what the traces from quantile `tail.from` on spend beside the median (tail-composition.ts).
 */
function breakdownOf(
  spans: readonly CollectedSpan[],
  traces: ReadonlySet<string>,
  q: number,
  tail: { from: number; onPath?: (span: CollectedSpan) => boolean },
): TraceBreakdown {
  const atQuantile = traceAtQuantile(spans, traces, q);
  return {
    median: latencyBreakdown(spans, traces),
    tail: atQuantile ? latencyBreakdown(spans, new Set([atQuantile])) : [],
    tailComposition: tailComposition(spans, traces, tail.from, tail.onPath),
  };
}

/** A measured load: its result, each process's cost, and the wait for the stack to go quiet before it. */
type MeasuredLoad = { result: LoadResult; quiet: QuietWait } & PathCost;

/**
 * The create-session rows (and the baseline's, the floors'), each added to `runner` as soon as it is measured (a
 * failure later keeps it); with a collector, where the time of the half-load requests went. The floors, the
 * interleaved ratio and each BENCH_SWEEP rate run as paths of their own: one that fails is an error row, and the
 * rest go on; the others measure against the baseline or the max load, and fail the whole create path.
 */
async function createSessionPaths(stack: TestStack, cpu: ProcessCpu, testKey: string, runner: PathRunner, collector?: OtlpCollector): Promise<TraceBreakdown | undefined> {
  const baseline = await forkBaselineServer(stack.database.url);
  cpu.track('baseline', baseline.pid);
  try {
    log(`Node ${process.version}; warm-up (${WARMUP_SECONDS} s) and baseline (${SECONDS} s, ${CONNECTIONS} connections)`);
    const base = await maxLoad(stack, cpu, `${baseline.url}/`);
    runner.add(loadRow('baseline', 'baseline: one process, HTTP + one pg insert', base, base.result));
    // Every create row is read against this rate (and the second baseline's drift from it): without one, the path
    // fails here, the baseline's row kept to say what it got.
    checkBaselineAnswered(base.result);
    for (const [framework, key, path] of [
      ['plain', 'floor-plain', 'create-path floor: its 3 processes and 2 bus hops, no work'],
      ['nest', 'floor-nest', "create-path floor on NestJS (the services' framework), no work"],
    ] as const) {
      await runner.run(key, path, async () => runner.add(loadRow(key, path, await measureTopologyFloor(stack, cpu, framework), base.result)));
    }
    const gatewayUrl = `${stack.url('gateway')}/v1/checkout/sessions`;
    const auth = { authorization: `Bearer ${testKey}` };
    log('create session through the gateway');
    const full = await maxLoad(stack, cpu, gatewayUrl, auth);
    runner.add(loadRow('create-max', 'create session (gateway → sessions → ledger → pg), max load', full, base.result));
    log('create session at half of the measured maximum');
    /** Evenly spaced create-session requests at `rate` a second, for SECONDS, once the max-load run's leftovers are done. */
    const pacedAt = async (rate: number, what: string): Promise<MeasuredLoad> => {
      const quiet = await settle(stack, cpu, what);
      const measured = await withCpu(cpu, () => pacedLoad({ url: gatewayUrl, headers: auth, body: sessionBody, seconds: SECONDS, connections: CONNECTIONS, rate }), (r) => r.requests);
      return { ...measured, quiet };
    };
    const spansBefore = collector?.spans.length ?? 0;
    // The settle inside sends no request, so no half-load span starts during it.
    const halfStarted = Date.now();
    const half = await pacedAt(Math.max(1, Math.floor(full.result.requests_per_second / 2)), 'the half-load row');
    const halfEnded = Date.now();
    runner.add({ ...loadRow('create-half', 'create session at half of max load', half, base.result), ratio: '-', baseline: 'p99 ≤ 50 ms target' });
    // The ratios hold only if the machine kept its speed from the baseline to the create paths: a shared host can
    // halve it for minutes (docs/PERFORMANCE-RUNS.md, thirty-second session), so the baseline is measured again after them.
    log('the baseline again (warm), to show whether the machine kept its speed through the create paths');
    const againQuiet = await settle(stack, cpu, 'the baseline again');
    const again = { ...(await measuredLoad(cpu, `${baseline.url}/`)), quiet: againQuiet };
    const drift = again.result.requests_per_second / base.result.requests_per_second - 1;
    if (Math.abs(drift) > BASELINE_DRIFT_WARNING) {
      log(`warning: the baseline measured ${Math.round(drift * 100)} % against its first run: the machine's speed changed during the create paths, so their ratios are not this machine's; read the interleaved row's ratio, or run the bench again`);
    }
    runner.add(loadRow('baseline-again', 'baseline again, after the create paths (no target)', again, base.result));
    if (INTERLEAVE_ROUNDS > 0) {
      await runner.run('create-interleaved', interleavedPath(), async () => runner.add(await interleaveWithBaseline(stack, cpu, `${baseline.url}/`, gatewayUrl, auth)));
    }
    for (const rate of SWEEP_RATES) {
      const path = `create session at ${rate} req/s (BENCH_SWEEP)`;
      await runner.run(sweepRowKey(rate), path, async () => {
        log(`create session at ${rate} req/s (BENCH_SWEEP)`);
        runner.add({ ...loadRow(sweepRowKey(rate), path, await pacedAt(rate, path), base.result), ratio: '-', baseline: '-' });
      });
    }
    if (!collector) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 1000)); // spans arrive in batches
    const spans = collector.spans.slice(spansBefore);
    const isHalfLoadRequest = (span: CollectedSpan) => span.service === 'gateway' && span.name === 'HTTP POST /v1/checkout/sessions' && span.startMs >= halfStarted && span.startMs < halfEnded;
    const traces = new Set(spans.filter(isHalfLoadRequest).map((span) => span.traceId));
    // The ledger publishes the session's event after its append has answered: beside the request's path, not on it.
    const onPath = (span: CollectedSpan) => !(span.service === 'ledger' && span.name.startsWith('publish '));
    return breakdownOf(spans, traces, 0.99, { from: 0.99, onPath });
  } finally {
    await baseline.close();
  }
}

/** The interleaved row's name (it carries its rounds: row-keys.ts). */
const interleavedPath = () => `create session interleaved with the baseline (median of ${INTERLEAVE_ROUNDS})`;

/**
 * The create ratio again, in short windows taking turns with the baseline (interleaved-ratio.ts): a ratio that a
 * change in the machine's speed between the rows above does not move, and a shorter one moves less. Both servers
 * are warm by now; the chain gets one window more before the first baseline window. Each window waits for the
 * stack to go quiet first: a baseline window started straight after a chain window shared the cores with the
 * chain's publication and projections, which lowered the baseline's rate and so raised the ratio.
 */
async function interleaveWithBaseline(stack: TestStack, cpu: ProcessCpu, baselineUrl: string, gatewayUrl: string, auth: Record<string, string>): Promise<Row> {
  log(`the create ratio interleaved with the baseline: ${INTERLEAVE_ROUNDS} rounds of ${INTERLEAVE_SECONDS} s windows`);
  const waits: QuietWait[] = [];
  const others = { non_2xx: 0, errors: 0 };
  const window = async (url: string, headers?: Record<string, string>): Promise<number> => {
    waits.push(await settle(stack, cpu, 'an interleaved window'));
    const result = await postLoad({ url, headers, body: sessionBody, seconds: INTERLEAVE_SECONDS, connections: CONNECTIONS });
    others.non_2xx += result.non_2xx;
    others.errors += result.errors;
    return result.requests_per_second;
  };
  // Not counted: the chain's first window after it idled through the baseline's run measured 0.14x-0.16x where the
  // next ones measured 0.16x-0.23x (docs/PERFORMANCE.md, "A create ratio that takes turns with the baseline").
  await window(gatewayUrl, auth);
  const baselineRates = [await window(baselineUrl)];
  const chainRates: number[] = [];
  for (let round = 0; round < INTERLEAVE_ROUNDS; round++) {
    chainRates.push(await window(gatewayUrl, auth));
    baselineRates.push(await window(baselineUrl));
  }
  const ratio = interleavedRatio(baselineRates, chainRates);
  log(`interleaved: each round's ratio ${ratio.ratios.map((r) => `${r.toFixed(2)}x`).join(', ')}`);
  const path = interleavedPath();
  warnNotCounted(path, others);
  return {
    key: 'create-interleaved',
    path,
    throughput: `${medianRate(chainRates)} req/s`,
    p50_ms: null,
    p99_ms: null,
    baseline: `${medianRate(baselineRates)} req/s`,
    ratio: `${ratio.median.toFixed(2)}x`,
    detail: {
      ratios: ratio.ratios,
      low: ratio.low,
      high: ratio.high,
      baseline_rates: baselineRates,
      chain_rates: chainRates,
      ...others,
      // Each window's wait, in the order measured: the uncounted chain window, the first baseline window, then chain and baseline in turn.
      quiet_wait_ms: waits.map((wait) => wait.waited_ms),
      windows_not_quiet: waits.filter((wait) => !wait.quiet).length,
    },
  };
}

/**
 * The create path's shape without its work (topology-floor.ts), at full load like the chain: what the three
 * processes and two hops cost by themselves ('plain'), and on the services' framework ('nest'), beside the baseline.
 * Both floors report under the same columns (floor edge, relay, store), each in its own row.
 */
async function measureTopologyFloor(stack: TestStack, cpu: ProcessCpu, framework: FloorFramework): Promise<MeasuredLoad> {
  log(
    framework === 'plain'
      ? "the create path's floor: three processes, two bus hops and a group-committed insert, none of the services' work"
      : "the create path's floor on NestJS: the same roles as Nest applications (Fastify, a Nest transport), none of the services' work",
  );
  const floor = await forkTopologyFloor(stack.database.url, stack.env.NATS_URL, framework);
  try {
    for (const [role, pid] of Object.entries(floor.pids)) cpu.track(`floor ${role}`, pid);
    return await maxLoad(stack, cpu, `${floor.url}/`);
  } finally {
    await floor.close();
  }
}

/**
 * Session bodies POSTed at `url` as fast as it answers: once the stack is quiet, the JIT's warm-up, then the
 * measured load. The wait comes before the warm-up, not between it and the window: what the warm-up leaves is
 * this path's own work and stands in for what the window leaves past its 1 s settle (withCpu), so the window
 * runs in its steady state, with nothing of another path in it.
 */
async function maxLoad(stack: TestStack, cpu: ProcessCpu, url: string, headers?: Record<string, string>): Promise<MeasuredLoad> {
  const quiet = await settle(stack, cpu, `the load on ${url}`);
  await postLoad({ url, headers, body: sessionBody, seconds: WARMUP_SECONDS, connections: CONNECTIONS });
  return { ...(await measuredLoad(cpu, url, headers)), quiet };
}

/** Session bodies POSTed at `url` as fast as it answers for SECONDS, with each process's CPU. */
function measuredLoad(cpu: ProcessCpu, url: string, headers?: Record<string, string>): Promise<{ result: LoadResult } & PathCost> {
  return withCpu(cpu, () => postLoad({ url, headers, body: sessionBody, seconds: SECONDS, connections: CONNECTIONS }), (r) => r.requests);
}

/** A load's row; its rate counts 2xx answers only (load.ts), and it warns when there were others. */
function loadRow(key: string, path: string, measured: MeasuredLoad, baseline: LoadResult): Row {
  const { result, quiet, ...cost } = measured;
  warnNotCounted(path, { 'non-2xx answers': result.non_2xx, errors: result.errors });
  return {
    key,
    path,
    throughput: `${result.requests_per_second} req/s`,
    p50_ms: result.p50_ms,
    p99_ms: result.p99_ms,
    ...(result.max_ms !== undefined ? { max_ms: result.max_ms } : {}),
    baseline: `${baseline.requests_per_second} req/s`,
    ratio: ratioText(result.requests_per_second, baseline.requests_per_second),
    ...cost,
    detail: {
      requests: result.requests,
      non_2xx: result.non_2xx,
      errors: result.errors,
      ...quietDetail(quiet),
      // Paced rows: p50, p99 and max above are timed from each request's due time; these from its actual send, as before.
      ...(result.from_send ? { latency_from: 'due time', from_send: result.from_send } : {}),
    },
  };
}

main().then(
  // After a failed path, whatever it left open (a socket, a timer) does not keep the process from ending. A signal
  // that came once the run was cleaning up anyway still gives its exit code.
  () => (interruption.interrupted ? process.exit(interruption.interrupted.exitCode) : process.exitCode && process.exit()),
  (error) => {
    // An interrupted run has said so (the signal on stderr, the report's stopped_early): no failure to print.
    if (!(error instanceof Interrupted)) process.stderr.write(`bench failed: ${errorText(error, { stack: true })}\n`);
    process.exit(interruption.interrupted?.exitCode ?? 1);
  },
);
