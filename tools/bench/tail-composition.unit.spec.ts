import type { CollectedSpan } from '@pp/testing';
import { tailComposition } from './tail-composition';

/** A request's trace: the edge span around a hop that starts `hopMs` in and whose handler takes `workMs`. */
function request(traceId: string, hopMs: number, workMs: number, extra: Partial<Record<'rare', boolean>> = {}): CollectedSpan[] {
  const span = (service: string, name: string, startMs: number, endMs: number): CollectedSpan => ({
    service,
    name,
    kind: 1,
    traceId,
    spanId: `${traceId}-${name}`,
    parentSpanId: '',
    links: [],
    attributes: {},
    startMs: 1_000 + startMs,
    endMs: 1_000 + endMs,
  });
  const spans = [span('gateway', 'HTTP POST', 0, hopMs + workMs + 1), span('sessions', 'bus create', hopMs, hopMs + workMs)];
  if (extra.rare) spans.push(span('ledger', 'pg.query:BEGIN', hopMs, hopMs + 0.5));
  return spans;
}

const ids = (spans: CollectedSpan[]) => new Set(spans.map((span) => span.traceId));

describe('what the slowest traces are made of (BENCH_TRACE)', () => {
  it('given traces whose slowest ones wait longer for the hop, when composed, then the hop carries all of the extra', () => {
    const spans = [
      ...Array.from({ length: 99 }, (_, i) => request(`t${i}`, 1, 2)).flat(),
      ...request('slow', 21, 2),
    ];
    const composition = tailComposition(spans, ids(spans), 0.99);
    expect(composition.tail_traces).toBe(1);
    expect(composition.traces).toBe(100);
    const hop = composition.stretches.find((row) => row.stretch === 'gateway HTTP POST start → sessions bus create start');
    expect(hop).toEqual({ stretch: 'gateway HTTP POST start → sessions bus create start', median_ms: 1, tail_ms: 21, share_of_extra: 1 });
    const work = composition.stretches.find((row) => row.stretch === 'sessions bus create start → sessions bus create end');
    expect(work).toMatchObject({ median_ms: 2, tail_ms: 2, share_of_extra: 0 });
  });

  it('given stretches in the order of the median trace, when composed, then they add up to the trace from first point to last', () => {
    const spans = [...request('a', 1, 2), ...request('b', 3, 5)];
    const composition = tailComposition(spans, new Set(['a']), 0.5);
    expect(composition.stretches.map((row) => row.stretch)).toEqual([
      'gateway HTTP POST start → sessions bus create start',
      'sessions bus create start → sessions bus create end',
      'sessions bus create end → gateway HTTP POST end',
    ]);
    expect(composition.stretches.reduce((sum, row) => sum + row.tail_ms, 0)).toBe(4);
  });

  it('given a span only some traces have (a group commit statement), when composed, then it cuts no stretch', () => {
    const spans = [...Array.from({ length: 20 }, (_, i) => request(`t${i}`, 1, 2, { rare: i === 0 })).flat()];
    const composition = tailComposition(spans, ids(spans), 0.99);
    expect(composition.stretches.some((row) => row.stretch.includes('pg.query'))).toBe(false);
  });

  it('given the slowest traces are no slower than the rest, when composed, then no stretch has a share of the extra', () => {
    const spans = Array.from({ length: 10 }, (_, i) => request(`t${i}`, 1, 2)).flat();
    const composition = tailComposition(spans, ids(spans), 0.99);
    expect(composition.stretches.every((row) => row.share_of_extra === 0)).toBe(true);
  });

  it('given a span name twice in each trace (a second Redis call), when composed, then the second is a point of its own', () => {
    const spans = ['a', 'b'].flatMap((traceId) => {
      const [edge, handler] = request(traceId, 1, 2);
      const second = { ...handler, spanId: `${traceId}-again`, startMs: handler.endMs + 0.2, endMs: handler.endMs + 0.7 };
      return [second, edge, handler];
    });
    const composition = tailComposition(spans, ids(spans), 0.5);
    expect(composition.stretches.map((row) => row.stretch)).toContain('sessions bus create end → sessions bus create #2 start');
  });

  it('given a span beside the path (a publish after the answer), when composed without it, then it cuts no stretch', () => {
    const spans = ['a', 'b'].flatMap((traceId) => {
      const [edge, handler] = request(traceId, 1, 2);
      return [edge, handler, { ...handler, name: 'publish', spanId: `${traceId}-publish`, startMs: handler.endMs - 0.1, endMs: edge.endMs + 1 }];
    });
    const onPath = (span: CollectedSpan) => span.name !== 'publish';
    expect(tailComposition(spans, ids(spans), 0.5).stretches.some((row) => row.stretch.includes('publish'))).toBe(true);
    expect(tailComposition(spans, ids(spans), 0.5, onPath).stretches.some((row) => row.stretch.includes('publish'))).toBe(false);
  });
});
