import { sampleSum, type Scrape } from '@pp/testing';
import { sinceSameProcess } from './since-same-process';

/**
 * Each service's garbage-collection pauses during a path, read from its own
 * Prometheus metrics (prom-client's `nodejs_gc_duration_seconds` histogram,
 * every kind together) before and after the path. A paced create-session
 * row's slowest answers are mostly requests that met such a pause in one of
 * the three services on their way (docs/PERFORMANCE.md, "The half-load p99
 * is garbage-collection pauses"), so the report counts them: pause ms per
 * request, and the pauses of 10 ms or more. A pause is wall time: on busy
 * cores a short collection that waits for a core, or for V8's helper
 * threads, counts as long too (docs/PERFORMANCE.md, "Long GC pauses of idle
 * services are waits, not collections").
 */

/** One process's pauses since it started, every kind of collection together. */
export interface GcTotals {
  pid: number;
  seconds: number;
  /** Pauses longer than the histogram's 10 ms bucket. */
  over10ms: number;
}

const METRIC = 'nodejs_gc_duration_seconds';

/** Totals of the GC histogram in one service's metrics (zeros when it has none). */
export function gcTotalsOf(scrape: Scrape, pid: number): GcTotals {
  const pauses = sampleSum(scrape, `${METRIC}_count`);
  const withinTenMs = sampleSum(scrape, `${METRIC}_bucket`, { le: '0.01' });
  return { pid, seconds: sampleSum(scrape, `${METRIC}_sum`), over10ms: pauses - withinTenMs };
}

export interface GcCost {
  /** ms each service spent paused for garbage collection per request of the path. */
  gc_ms_per_request: Record<string, number>;
  /** How many of those pauses lasted 10 ms or more, per service, over the whole path. */
  gc_pauses_over_10ms: Record<string, number>;
}

/** What each service paused between two samples; a process that started in between counts from zero. */
export function gcPausesBetween(before: Map<string, GcTotals>, after: Map<string, GcTotals>, requests: number): GcCost {
  const cost: GcCost = { gc_ms_per_request: {}, gc_pauses_over_10ms: {} };
  for (const [service, now, earlier] of sinceSameProcess(before, after, { seconds: 0, over10ms: 0 })) {
    cost.gc_ms_per_request[service] = requests > 0 ? Math.round(((now.seconds - earlier.seconds) * 1e6) / requests) / 1000 : 0;
    cost.gc_pauses_over_10ms[service] = now.over10ms - earlier.over10ms;
  }
  return cost;
}
