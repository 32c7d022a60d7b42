import { WaveGate } from './wave-gate';

/** A task that records when it started and finishes when told. */
function controllable(started: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const task = () => {
    started.push(name);
    return done;
  };
  return { task, finish: () => finish(name), fail: (error: Error) => fail(error) };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WaveGate', () => {
  it('given no load, when a lone task comes, then it starts in the next turn and its result comes back', async () => {
    const gate = new WaveGate(10_000);
    const started = Date.now();
    expect(await gate.run(async () => 'done')).toBe('done');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('given tasks of the same turn, when the gate is open, then they start together as one wave', async () => {
    const gate = new WaveGate(10_000);
    const started: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => controllable(started, name));
    const results = [gate.run(a.task), gate.run(b.task), gate.run(c.task)];
    await nextTurn();
    expect(started).toEqual(['a', 'b', 'c']);
    a.finish();
    b.finish();
    c.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
  });

  it('given a wave running, when more tasks come, then they wait for the whole wave and start together', async () => {
    const gate = new WaveGate(10_000);
    const started: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => controllable(started, name));
    const first = [gate.run(a.task), gate.run(b.task)];
    await nextTurn();
    const second = [gate.run(c.task)];
    await nextTurn();
    second.push(gate.run(d.task));
    await nextTurn();
    expect(started).toEqual(['a', 'b']);

    a.finish();
    await first[0];
    await nextTurn();
    expect(started).toEqual(['a', 'b']); // b still runs

    b.finish();
    await first[1];
    await nextTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    c.finish();
    d.finish();
    expect(await Promise.all(second)).toEqual(['c', 'd']);
  });

  it('given a slow task, when others have waited maxWaitMs, then they start beside it', async () => {
    const gate = new WaveGate(50);
    const started: string[] = [];
    const [slow, next] = ['slow', 'next'].map((name) => controllable(started, name));
    const slowRun = gate.run(slow.task);
    await nextTurn();
    const nextRun = gate.run(next.task);
    await sleep(20);
    expect(started).toEqual(['slow']);
    await sleep(60);
    expect(started).toEqual(['slow', 'next']);
    next.finish();
    expect(await nextRun).toBe('next');
    slow.finish();
    expect(await slowRun).toBe('slow');
  });

  it('given a task that fails, when it ends, then its caller gets the error and the waiting tasks start', async () => {
    const gate = new WaveGate(10_000);
    const started: string[] = [];
    const [failing, waiting] = ['failing', 'waiting'].map((name) => controllable(started, name));
    const failed = gate.run(failing.task);
    await nextTurn();
    const after = gate.run(waiting.task);
    failing.fail(new Error('boom'));
    await expect(failed).rejects.toThrow('boom');
    await nextTurn();
    expect(started).toEqual(['failing', 'waiting']);
    waiting.finish();
    expect(await after).toBe('waiting');
  });
});
