import { retried } from './retried';

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
