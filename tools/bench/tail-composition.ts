import type { CollectedSpan } from '@pp/testing';
import { quantile, spansOfTraces } from './latency-breakdown';

/** One stretch of a trace's timeline, between two consecutive points of the median trace. */
export interface TailStretch {
  /** `<service> <span name> start|end → <service> <span name> start|end`. */
  stretch: string;
  /** Median length of the stretch over all the traces, in ms. */
  median_ms: number;
  /** Mean length of the stretch over the slowest traces, in ms. */
  tail_ms: number;
  /** Of what the slowest traces take beyond the median trace, the part spent in this stretch (may be negative). */
  share_of_extra: number;
}

export interface TailComposition {
  /** How many traces there were, and how many of them are the tail (at or past the quantile). */
  traces: number;
  tail_traces: number;
  stretches: TailStretch[];
}

/** Spans that fewer traces than this have (a group commit's statements: only its first request's trace) are left out. */
const COMMON_SPAN_SHARE = 0.9;

type Point = { name: string; at: (trace: Map<string, CollectedSpan>) => number | undefined };

/**
 * What the slowest traces are made of, stretch by stretch. Every span that
 * nearly all the traces have gives two points, its start and its end; the
 * points in the order of the median trace cut each trace's timeline into
 * stretches (a hop, a queue, a span's own work), whose lengths add up to the
 * trace's. For the traces at or past quantile `q` of length (0.99: those
 * that make a p99), each stretch's mean length is set beside its median
 * over all the traces: where the extra time of the tail goes. One trace at
 * the p99 shows one story; this shows the tail's. `onPath` keeps out spans
 * that run beside the path measured rather than on it (the ledger's publish
 * of an event, after the append has answered), whose points would cut the
 * stretches of the path into overlapping pieces.
 */
export function tailComposition(
  spans: readonly CollectedSpan[],
  traceIds: ReadonlySet<string>,
  q: number,
  onPath: (span: CollectedSpan) => boolean = () => true,
): TailComposition {
  const traces = spansByTrace(spans.filter(onPath), traceIds);
  const points = medianOrder(traces);
  const lengths = traces.map((trace) => lengthOf(trace, points));
  const threshold = quantile(lengths, q);
  const tail = traces.filter((_, i) => lengths[i] >= threshold);
  const stretch = (trace: Map<string, CollectedSpan>, i: number) => {
    const from = points[i].at(trace);
    const to = points[i + 1].at(trace);
    return from === undefined || to === undefined ? undefined : to - from;
  };
  const rows = points.slice(0, -1).map((point, i) => ({
    stretch: `${point.name} → ${points[i + 1].name}`,
    median: quantile(defined(traces.map((trace) => stretch(trace, i))), 0.5),
    tail: mean(defined(tail.map((trace) => stretch(trace, i)))),
  }));
  const extra = rows.reduce((sum, row) => sum + row.tail - row.median, 0);
  return {
    traces: traces.length,
    tail_traces: tail.length,
    stretches: rows.map((row) => ({
      stretch: row.stretch,
      median_ms: round(row.median),
      tail_ms: round(row.tail),
      share_of_extra: extra > 0 ? Math.round(((row.tail - row.median) / extra) * 100) / 100 : 0,
    })),
  };
}

export function printTailComposition(title: string, composition: TailComposition): void {
  const width = Math.max(...composition.stretches.map((row) => row.stretch.length), 7);
  const lines = [
    `\n${title} (${composition.tail_traces} of ${composition.traces} traces)`,
    `${'stretch'.padEnd(width)}  median ms  tail mean ms  share of the extra`,
  ];
  for (const row of composition.stretches) {
    const share = `${Math.round(row.share_of_extra * 100)} %`;
    lines.push(`${row.stretch.padEnd(width)}  ${String(row.median_ms).padStart(9)}  ${String(row.tail_ms).padStart(12)}  ${share.padStart(18)}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * Each trace as its spans by `<service> <name>`, numbered from the second of a name on in the order they start
 * (`gateway evalsha #2`: the idempotency key's completion after its reservation); a retry's is rare and left out.
 */
function spansByTrace(spans: readonly CollectedSpan[], traceIds: ReadonlySet<string>): Map<string, CollectedSpan>[] {
  return spansOfTraces(spans, traceIds).map((trace) => {
    const named = new Map<string, CollectedSpan>();
    for (const span of trace.sort((a, b) => a.startMs - b.startMs)) {
      const name = `${span.service} ${span.name}`;
      let key = name;
      for (let n = 2; named.has(key); n++) key = `${name} #${n}`;
      named.set(key, span);
    }
    return named;
  });
}

/** The start and end points of the spans nearly every trace has, in the order of their median offsets. */
function medianOrder(traces: readonly Map<string, CollectedSpan>[]): Point[] {
  const counts = new Map<string, number>();
  for (const trace of traces) for (const key of trace.keys()) counts.set(key, (counts.get(key) ?? 0) + 1);
  const common = [...counts].filter(([, count]) => count >= traces.length * COMMON_SPAN_SHARE).map(([key]) => key);
  const origins = traces.map((trace) => Math.min(...[...trace.values()].map((span) => span.startMs)));
  const points = common.flatMap((key): Point[] => [
    { name: `${key} start`, at: (trace) => trace.get(key)?.startMs },
    { name: `${key} end`, at: (trace) => trace.get(key)?.endMs },
  ]);
  const medianOffset = (point: Point) => quantile(defined(traces.map((trace, i) => subtract(point.at(trace), origins[i]))), 0.5);
  const offsets = new Map(points.map((point) => [point, medianOffset(point)]));
  return points.sort((a, b) => offsets.get(a)! - offsets.get(b)!);
}

/** First point to last, which the stretches add up to. */
function lengthOf(trace: Map<string, CollectedSpan>, points: readonly Point[]): number {
  const at = defined(points.map((point) => point.at(trace)));
  return at.length === 0 ? 0 : Math.max(...at) - Math.min(...at);
}

const subtract = (a: number | undefined, b: number) => (a === undefined ? undefined : a - b);
const defined = (values: (number | undefined)[]) => values.filter((value): value is number => value !== undefined);
const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
const round = (ms: number) => Math.round(ms * 10) / 10;
