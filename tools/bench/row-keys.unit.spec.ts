import { rowKey, sweepRowKey } from './row-keys';

describe("a row's key across reports", () => {
  it('given a row with a key, then the key, whatever its name says', () => {
    expect(rowKey({ key: 'webhook-fanout', path: 'webhook fan-out (8 endpoints)' })).toBe('webhook-fanout');
  });

  it('given rows of an older report, without keys, then the keys their names stand for', () => {
    expect(rowKey({ path: 'baseline: one process, HTTP + one pg insert' })).toBe('baseline');
    expect(rowKey({ path: 'create session at half of max load' })).toBe('create-half');
    expect(rowKey({ path: 'idle memory (max RSS of one service)' })).toBe('idle-rss');
  });

  it('given older names that carry a setting, then the same key whatever the setting was', () => {
    expect(rowKey({ path: 'webhook fan-out (4 endpoints)' })).toBe('webhook-fanout');
    expect(rowKey({ path: 'webhook fan-out (8 endpoints)' })).toBe('webhook-fanout');
    expect(rowKey({ path: 'create session interleaved with the baseline (median of 5)' })).toBe('create-interleaved');
    expect(rowKey({ path: 'create session at 200 req/s (BENCH_SWEEP)' })).toBe(sweepRowKey(200));
  });

  it('given a name none of the known ones, then the name itself', () => {
    expect(rowKey({ path: 'something measured once' })).toBe('something measured once');
  });
});
