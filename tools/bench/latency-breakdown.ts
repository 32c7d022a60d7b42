import type { CollectedSpan } from '@pp/testing';
import { quantile as quantileOfSorted } from './latency-summary';

export interface SpanTiming {
  /** `<service> <span name>`; ids in names are not expected (span names are templates). */
  span: string;
  /** Median start and end, in ms after the trace's first span started. */
  start_ms: number;
  end_ms: number;
  traces: number;
}

/**
 * Where the time of one kind of trace goes: for every span that appears in
 * the given traces, its median start and end relative to the start of its
 * trace, in the order spans start. Read it as a timeline of the median trace:
 * a gap between one span's end and the next one's start is time no span
 * covers (a queue, a poll, a batch window).
 */
export function latencyBreakdown(spans: readonly CollectedSpan[], traceIds: ReadonlySet<string>): SpanTiming[] {
  const offsets = new Map<string, { starts: number[]; ends: number[] }>();
  for (const trace of spansOfTraces(spans, traceIds)) {
    const origin = Math.min(...trace.map((span) => span.startMs));
    const seen = new Set<string>();
    for (const span of trace) {
      const key = `${span.service} ${span.name}`;
      if (seen.has(key)) continue; // the first of a name per trace (a retry would skew the median)
      seen.add(key);
      const entry = offsets.get(key) ?? { starts: [], ends: [] };
      entry.starts.push(span.startMs - origin);
      entry.ends.push(span.endMs - origin);
      offsets.set(key, entry);
    }
  }
  const median = (values: number[]) => Math.round(quantile(values, 0.5) * 10) / 10;
  return [...offsets]
    .map(([span, { starts, ends }]) => ({ span, start_ms: median(starts), end_ms: median(ends), traces: starts.length }))
    .sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms);
}

/**
 * The trace among `traceIds` at quantile `q` of their lengths (first span's
 * start to last span's end): 1 is the slowest, 0.99 the one a p99 is made of.
 */
export function traceAtQuantile(spans: readonly CollectedSpan[], traceIds: ReadonlySet<string>, q: number): string | undefined {
  const extent = new Map<string, { start: number; end: number }>();
  for (const span of spans) {
    if (!traceIds.has(span.traceId)) continue;
    const seen = extent.get(span.traceId);
    extent.set(span.traceId, { start: Math.min(seen?.start ?? span.startMs, span.startMs), end: Math.max(seen?.end ?? span.endMs, span.endMs) });
  }
  const byLength = [...extent].sort(([, a], [, b]) => a.end - a.start - (b.end - b.start));
  return quantileOfSorted(byLength, q)?.[0];
}

/** The spans of each of `traceIds`, a list per trace. */
export function spansOfTraces(spans: readonly CollectedSpan[], traceIds: ReadonlySet<string>): CollectedSpan[][] {
  const byTrace = new Map<string, CollectedSpan[]>();
  for (const span of spans) {
    if (!traceIds.has(span.traceId)) continue;
    const trace = byTrace.get(span.traceId);
    if (trace) trace.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  return [...byTrace.values()];
}

/** The value at quantile `q` of `values` (any order; 0.5: the median; 1: the largest), by latency-summary.ts's rule; 0 for none. */
export function quantile(values: readonly number[], q: number): number {
  return quantileOfSorted([...values].sort((a, b) => a - b), q) ?? 0;
}

export function printBreakdown(title: string, timings: readonly SpanTiming[]): void {
  const width = Math.max(...timings.map((timing) => timing.span.length), 4);
  const lines = [`\n${title}`, `${'span'.padEnd(width)}  start ms  end ms  traces`];
  for (const timing of timings) {
    lines.push(`${timing.span.padEnd(width)}  ${String(timing.start_ms).padStart(8)}  ${String(timing.end_ms).padStart(6)}  ${String(timing.traces).padStart(6)}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
