/** A path's latencies, summed up: the median, the 99th percentile and the slowest. */
export interface LatencySummary {
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/**
 * The value at quantile `q` of `sorted` (ascending): the one `q` of the way along, as the bench has always read them.
 * Every quantile the bench reads uses this rule (latency-breakdown.ts too): recorded figures depend on it.
 */
export function quantile<T>(sorted: readonly T[], q: number): T | undefined {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

/** p50, p99 and max of `latencies` (any order), each rounded by `round`; 0 each when there are none. */
export function summarizeLatencies(latencies: readonly number[], round: (ms: number) => number = Math.round): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => round(quantile(sorted, q) ?? 0);
  return { p50_ms: at(0.5), p99_ms: at(0.99), max_ms: round(sorted[sorted.length - 1] ?? 0) };
}

/** To a tenth of a millisecond, as the webhook row reports (its target, p50 ≤ 10 ms, is near that). */
export const toTenths = (ms: number): number => Math.round(ms * 10) / 10;

/**
 * When request `index` (from 0) of a paced load is due, in ms after the first: evenly spaced at `rate` a second.
 * A request is timed from here, not from when it was actually sent, so a send the bench's own process delayed
 * (it lost the CPU, its timer fired late) counts as the wait a client would have seen (coordinated omission).
 */
export const dueOffsetMs = (index: number, rate: number): number => (index * 1000) / rate;

/** How many of `total` requests are due `elapsedMs` after the first (which is due at once): those with dueOffsetMs ≤ elapsedMs. */
export const dueCount = (elapsedMs: number, rate: number, total: number): number => Math.min(total, Math.floor((elapsedMs * rate) / 1000) + 1);
