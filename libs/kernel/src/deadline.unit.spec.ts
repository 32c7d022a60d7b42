import { withinDeadline } from './deadline';

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
});
