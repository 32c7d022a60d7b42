import { callTimeoutMs, requestContext } from '../logging/request-context';
import { Batcher } from './batcher';

describe('Batcher', () => {
  it('given lookups added in one tick, when run, then one call answers them and each caller gets its own result', async () => {
    const calls: string[][] = [];
    const batcher = new Batcher<string, number>(async (items) => {
      calls.push(items);
      return items.map((item) => item.length);
    });
    expect(await Promise.all([batcher.add('a'), batcher.add('bbb'), batcher.add('cc')])).toEqual([1, 3, 2]);
    expect(calls).toEqual([['a', 'bbb', 'cc']]);
  });

  it('given items added a few promise jobs apart in one turn of the event loop, when run, then they still go in one batch', async () => {
    const calls: number[][] = [];
    const batcher = new Batcher<number>(async (items) => void calls.push(items));
    const added: Promise<void>[] = [];
    for (let i = 0; i < 3; i++) {
      added.push(batcher.add(i));
      await Promise.resolve(); // as a for-await loop over a burst of messages yields each one
    }
    await Promise.all(added);
    expect(calls).toEqual([[0, 1, 2]]);
  });

  it('given overlapping batches, when a batch waits on a slow item, then items of a later turn run at once in a batch of their own', async () => {
    const calls: number[][] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const batcher = new Batcher<number, number>(
      async (items) => {
        calls.push(items);
        if (items.includes(1)) await slow;
        return items;
      },
      { overlapping: true },
    );
    const first = [batcher.add(1), batcher.add(2)];
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is running, waiting on item 1
    expect(await Promise.all([batcher.add(3), batcher.add(4)])).toEqual([3, 4]);
    expect(calls).toEqual([[1, 2], [3, 4]]);
    release();
    expect(await Promise.all(first)).toEqual([1, 2]);
    await batcher.drain();
  });

  it('given a run that answers fewer results than items, when it returns, then every caller of the batch fails instead of getting another one\'s', async () => {
    const batcher = new Batcher<string, number>(async () => [1]);
    const answers = [batcher.add('a'), batcher.add('b')].map((added) => added.then(String, (error: Error) => error.message));
    expect(await Promise.all(answers)).toEqual(['a batch of 2 answered 1 results', 'a batch of 2 answered 1 results']);
  });

  it('given items added in one tick, when written, then they go in one batch and every caller resolves', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number>(async (items) => void batches.push(items));
    await Promise.all([batcher.add(1), batcher.add(2), batcher.add(3)]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('given a batch being written, when more items come, then they wait and go together in the next, in order', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const firstWrite = new Promise<void>((resolve) => (release = resolve));
    const batcher = new Batcher<number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await firstWrite;
    });
    const first = batcher.add(1);
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is being written now
    const later = [batcher.add(2), batcher.add(3)];
    expect(batches).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('given a failing write, when it fails, then each caller of that batch gets the error and the next batch is still written', async () => {
    const written: number[][] = [];
    const batcher = new Batcher<number>(async (items) => {
      if (items.includes(2)) throw new Error('database away');
      written.push(items);
    });
    const failing = [batcher.add(1), batcher.add(2)].map((added) => added.then(() => 'ok', (error: Error) => error.message));
    expect(await Promise.all(failing)).toEqual(['database away', 'database away']);
    await batcher.add(3);
    expect(written).toEqual([[3]]);
  });

  it('given items in flight, when drained, then it resolves after they are written', async () => {
    const written: number[] = [];
    const batcher = new Batcher<number>(async (items) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      written.push(...items);
    });
    void batcher.add(1);
    void batcher.add(2);
    await batcher.drain();
    expect(written).toEqual([1, 2]);
  });

  it.each([false, true])(
    'given a batch started by a caller with a request id and a deadline (overlapping: %p), when it and a later batch run, then neither sees that caller’s context',
    async (overlapping) => {
      const seen: { requestId?: string; timeoutMs: number }[] = [];
      let release!: () => void;
      const first = new Promise<void>((resolve) => (release = resolve));
      const batcher = new Batcher<number>(
        async (items) => {
          seen.push({ requestId: requestContext.current()?.requestId, timeoutMs: callTimeoutMs(15_000) });
          if (items[0] === 1) await first;
        },
        { overlapping },
      );
      const one = requestContext.run({ requestId: 'first', deadline: Date.now() + 5 }, () => batcher.add(1));
      await new Promise((resolve) => setImmediate(resolve));
      const two = batcher.add(2);
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      await Promise.all([one, two]);
      expect(seen).toEqual([
        { requestId: undefined, timeoutMs: 15_000 },
        { requestId: undefined, timeoutMs: 15_000 },
      ]);
    },
  );
});
