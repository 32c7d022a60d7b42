import { retried, retriedWithin } from './retried';

describe('retried', () => {
  it('given work that fails twice then succeeds, when given three attempts, then it answers the third’s result', async () => {
    let calls = 0;
    const run = async () => {
      calls += 1;
      if (calls < 3) throw new Error(`blip ${calls}`);
      return 'done';
    };
    await expect(retried(run, 3, 1)).resolves.toBe('done');
    expect(calls).toBe(3);
  });

  it('given work that always fails, then it runs it exactly `attempts` times and throws the last failure', async () => {
    let calls = 0;
    const run = async () => {
      calls += 1;
      throw new Error(`failure ${calls}`);
    };
    await expect(retried(run, 3, 1)).rejects.toThrow('failure 3');
    expect(calls).toBe(3);
  });

  it('given work that succeeds at once, then it runs once', async () => {
    let calls = 0;
    await expect(retried(async () => ++calls, 5, 1000)).resolves.toBe(1);
    expect(calls).toBe(1);
  });
});

describe('retriedWithin', () => {
  it('given work that fails five times then succeeds, when the budget covers the waits, then it answers the sixth’s result', async () => {
    let calls = 0;
    const run = async () => {
      calls += 1;
      if (calls < 6) throw new Error(`blip ${calls}`);
      return 'done';
    };
    await expect(retriedWithin(run, 1000, 5)).resolves.toBe('done');
    expect(calls).toBe(6);
  });

  it('given work that always fails, then it stops once the next wait would pass the budget, throwing the last failure', async () => {
    let calls = 0;
    const started = Date.now();
    const run = async () => {
      calls += 1;
      throw new Error(`failure ${calls}`);
    };
    // Waits of 20, 40, 60, 80 ms: 200 ms in all; the fifth would end past 250.
    await expect(retriedWithin(run, 250, 20)).rejects.toThrow('failure 5');
    expect(calls).toBe(5);
    expect(Date.now() - started).toBeLessThan(250);
  });
});
