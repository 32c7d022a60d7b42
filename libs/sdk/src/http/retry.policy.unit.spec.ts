import { DEFAULT_RETRY_SETTINGS, isRetryable, mayHaveRun, parseRetryAfter, retryDelay, type AttemptOutcome } from './retry.policy';

const settings = { ...DEFAULT_RETRY_SETTINGS, baseDelayMs: 100, maxDelayMs: 1000, maxRetries: 3 };
const NOW = Date.UTC(2026, 10, 23, 18, 0, 0);
const response = (status: number, retryAfter: string | null = null, fromGateway = true): AttemptOutcome => ({ kind: 'response', status, retryAfter, fromGateway });

describe('retry policy', () => {
  it('retries network errors, 429, 5xx and the 409 that says "still in progress" (Retry-After), nothing else', () => {
    expect(isRetryable({ kind: 'network' })).toBe(true);
    expect([429, 500, 502, 503].map((s) => isRetryable(response(s)))).toEqual([true, true, true, true]);
    expect(isRetryable(response(409, '1'))).toBe(true);
    expect([400, 401, 403, 404, 409, 413, 415].map((s) => isRetryable(response(s)))).toEqual(Array(7).fill(false));
  });

  it('counts as "may have run" no answer, a 5xx from the gateway (X-Request-Id) and a 504; not a connection that could not be made, a proxy’s own 502 or 503, a 429 or a 409', () => {
    expect(mayHaveRun({ kind: 'network' })).toBe(true);
    expect(mayHaveRun({ kind: 'network', unsent: false })).toBe(true);
    expect(mayHaveRun({ kind: 'network', unsent: true })).toBe(false);
    expect(isRetryable({ kind: 'network', unsent: true })).toBe(true);
    expect([500, 502, 503, 504].map((s) => mayHaveRun(response(s, null, true)))).toEqual([true, true, true, true]);
    expect([500, 502, 503].map((s) => mayHaveRun(response(s, null, false)))).toEqual([false, false, false]);
    expect(mayHaveRun(response(504, null, false))).toBe(true);
    expect([429, 409, 404].map((s) => mayHaveRun(response(s, '0', true)))).toEqual([false, false, false]);
  });

  it('backs off exponentially with jitter between half and all of the ceiling, capped', () => {
    expect([1, 2, 3].map((retry) => retryDelay({ kind: 'network' }, retry, settings, 0, NOW))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((retry) => retryDelay({ kind: 'network' }, retry, settings, 1, NOW))).toEqual([100, 200, 400]);
    expect(retryDelay({ kind: 'network' }, 3, { ...settings, maxDelayMs: 300 }, 1, NOW)).toBe(300);
  });

  it('stops after maxRetries and on errors that would fail again', () => {
    expect(retryDelay({ kind: 'network' }, 4, settings, 0.5, NOW)).toBeUndefined();
    expect(retryDelay(response(400), 1, settings, 0.5, NOW)).toBeUndefined();
    expect(retryDelay({ kind: 'network' }, 1, { ...settings, maxRetries: 0 }, 0.5, NOW)).toBeUndefined();
  });

  it('waits at least what Retry-After asks, in seconds or as a date, and gives up when it asks too much', () => {
    expect(retryDelay(response(503, '2'), 1, settings, 0, NOW)).toBe(2000);
    expect(retryDelay(response(429, new Date(NOW + 3000).toUTCString()), 1, settings, 0, NOW)).toBe(3000);
    expect(retryDelay(response(429, '0'), 1, settings, 0, NOW)).toBe(50);
    expect(retryDelay(response(429, '3600'), 1, settings, 0, NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
  });
});
