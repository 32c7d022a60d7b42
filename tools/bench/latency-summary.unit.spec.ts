import { dueCount, dueOffsetMs, quantile, summarizeLatencies, toTenths } from './latency-summary';

describe('latency figures', () => {
  it('given 100 latencies, when summed up, then p50 is the 51st, p99 the 100th and max the slowest', () => {
    const latencies = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted
    expect(summarizeLatencies(latencies)).toEqual({ p50_ms: 51, p99_ms: 100, max_ms: 100 });
  });

  it('given 1,000 latencies with ten slow ones, then p99 is the first slow one and max the slowest', () => {
    const latencies = [...Array.from({ length: 990 }, () => 5), ...Array.from({ length: 10 }, (_, i) => 50 + i)];
    expect(summarizeLatencies(latencies)).toEqual({ p50_ms: 5, p99_ms: 50, max_ms: 59 });
  });

  it('given tenths kept, then the figures are rounded to a tenth of a millisecond', () => {
    expect(summarizeLatencies([1.04, 2.26, 3.01], toTenths)).toEqual({ p50_ms: 2.3, p99_ms: 3, max_ms: 3 });
  });

  it('given no latency, then every figure is 0 and the quantile is none', () => {
    expect(summarizeLatencies([])).toEqual({ p50_ms: 0, p99_ms: 0, max_ms: 0 });
    expect(quantile([], 0.5)).toBeUndefined();
  });
});

describe('the paced load schedule', () => {
  it('given 200 requests a second, then request i is due i × 5 ms after the first', () => {
    expect([0, 1, 2, 200].map((i) => dueOffsetMs(i, 200))).toEqual([0, 5, 10, 1000]);
  });

  it('given the time since the first, then the due count is every request whose due time has come, never more than the total', () => {
    expect(dueCount(0, 200, 2000)).toBe(1);
    expect(dueCount(4.9, 200, 2000)).toBe(1);
    expect(dueCount(5, 200, 2000)).toBe(2);
    expect(dueCount(60_000, 200, 2000)).toBe(2000);
  });

  it('given a due count, then its last request is due by then and the next one is not', () => {
    for (const elapsed of [0, 3, 7.5, 123.4, 999]) {
      const count = dueCount(elapsed, 333, 10_000);
      expect(dueOffsetMs(count - 1, 333)).toBeLessThanOrEqual(elapsed);
      expect(dueOffsetMs(count, 333)).toBeGreaterThan(elapsed);
    }
  });
});
