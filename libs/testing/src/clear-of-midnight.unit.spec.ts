import { clearOfUtcMidnight } from './clear-of-midnight';

describe('clearOfUtcMidnight', () => {
  const at = (iso: string) => () => Date.parse(iso);

  it('given midnight 50 ms away, when a test waits for it, then it resumes after midnight', async () => {
    const started = performance.now();
    await clearOfUtcMidnight(15_000, at('2026-12-06T23:59:59.950Z'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('given midnight an hour away, when a test waits for it, then it goes on at once', async () => {
    const started = performance.now();
    await clearOfUtcMidnight(15_000, at('2026-12-06T23:00:00.000Z'));
    expect(performance.now() - started).toBeLessThan(50);
  });
});
