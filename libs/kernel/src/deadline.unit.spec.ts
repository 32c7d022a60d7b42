import { MAX_TIMER_MS, timerDelay, withinDeadline } from './deadline';

describe('withinDeadline', () => {
  it('given work that ends in time, then its value or its error, as it is', async () => {
    await expect(withinDeadline(Promise.resolve('done'), 1_000, () => new Error('late'))).resolves.toBe('done');
    await expect(withinDeadline(Promise.reject(new Error('failed')), 1_000, () => new Error('late'))).rejects.toThrow('failed');
  });

  it('given work that outlasts the deadline, then the deadline’s error when it passes', async () => {
    const started = performance.now();
    await expect(withinDeadline(new Promise(() => undefined), 50, () => new Error('no answer within 50 ms'))).rejects.toThrow('no answer within 50 ms');
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('given a deadline longer than Node’s timers take, then it is still pending after 50 ms', async () => {
    let finish!: (value: string) => void;
    const outcome = withinDeadline(new Promise<string>((resolve) => (finish = resolve)), 2 ** 31, () => new Error('expired'));
    const first = await Promise.race([outcome, new Promise((resolve) => setTimeout(() => resolve('still pending'), 50))]);
    expect(first).toBe('still pending');
    finish('done'); // ends the race, and with it the timer
    await expect(outcome).resolves.toBe('done');
  });
});

describe('timerDelay', () => {
  it.each([
    [2 ** 31, MAX_TIMER_MS],
    [Infinity, MAX_TIMER_MS],
    [-5, 0],
    [NaN, 0],
    [1_500, 1_500],
  ])('given %p ms, then a timer waits %p ms', (ms, delay) => {
    expect(timerDelay(ms)).toBe(delay);
  });
});
