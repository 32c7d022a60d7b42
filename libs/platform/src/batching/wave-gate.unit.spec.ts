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
    const gate = new WaveGate({ maxWaitMs: 10_000 });
    const started = Date.now();
    expect(await gate.run(async () => 'done')).toBe('done');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('given tasks of the same turn, when the gate is open, then they start together as one wave', async () => {
    const gate = new WaveGate({ maxWaitMs: 10_000 });
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
    const gate = new WaveGate({ maxWaitMs: 10_000 });
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
    const gate = new WaveGate({ maxWaitMs: 50 });
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
    const gate = new WaveGate({ maxWaitMs: 10_000 });
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

  describe('with regatherMs', () => {
    /** Runs a wave of the named tasks and ends it; resolves once they have all answered. */
    async function endedWave(gate: WaveGate, started: string[], names: string[]) {
      const tasks = names.map((name) => controllable(started, name));
      const runs = tasks.map((task) => gate.run(task.task));
      await nextTurn();
      tasks.forEach((task) => task.finish());
      await Promise.all(runs);
    }

    it('given a wave of three has ended, when its three callers come back one by one, then they start together as soon as the third comes', async () => {
      const gate = new WaveGate({ maxWaitMs: 10_000, regatherMs: 10_000 });
      const started: string[] = [];
      await endedWave(gate, started, ['a', 'b', 'c']);
      const [a, b, c] = ['a2', 'b2', 'c2'].map((name) => controllable(started, name));
      const runs = [gate.run(a.task)];
      await nextTurn();
      runs.push(gate.run(b.task));
      await sleep(20);
      expect(started).toEqual(['a', 'b', 'c']);
      const returned = Date.now();
      runs.push(gate.run(c.task));
      await nextTurn();
      expect(started).toEqual(['a', 'b', 'c', 'a2', 'b2', 'c2']);
      expect(Date.now() - returned).toBeLessThan(1_000);
      [a, b, c].forEach((task) => task.finish());
      expect(await Promise.all(runs)).toEqual(['a2', 'b2', 'c2']);
    });

    it('given a wave of three has ended, when only two come back, then they start when regatherMs is up', async () => {
      const gate = new WaveGate({ maxWaitMs: 10_000, regatherMs: 60 });
      const started: string[] = [];
      await endedWave(gate, started, ['a', 'b', 'c']);
      const [a, b] = ['a2', 'b2'].map((name) => controllable(started, name));
      const runs = [gate.run(a.task), gate.run(b.task)];
      await sleep(20);
      expect(started).toEqual(['a', 'b', 'c']);
      await sleep(80);
      expect(started).toEqual(['a', 'b', 'c', 'a2', 'b2']);
      a.finish();
      b.finish();
      expect(await Promise.all(runs)).toEqual(['a2', 'b2']);
    });

    it('given tasks that came while a wave ran, when it ends, then the next wave also waits for the callers of the wave that ended', async () => {
      const gate = new WaveGate({ maxWaitMs: 10_000, regatherMs: 10_000 });
      const started: string[] = [];
      const [a, late] = ['a', 'late'].map((name) => controllable(started, name));
      const first = gate.run(a.task);
      await nextTurn();
      const lateRun = gate.run(late.task);
      a.finish();
      await first;
      await nextTurn();
      expect(started).toEqual(['a']); // the crowd was two: a, and late while a ran
      const again = controllable(started, 'a2');
      const againRun = gate.run(again.task);
      await nextTurn();
      expect(started).toEqual(['a', 'late', 'a2']);
      late.finish();
      again.finish();
      expect(await Promise.all([lateRun, againRun])).toEqual(['late', 'a2']);
    });

    it('given a lone task has ended, when the next comes, then it starts without waiting', async () => {
      const gate = new WaveGate({ maxWaitMs: 10_000, regatherMs: 10_000 });
      const started: string[] = [];
      await endedWave(gate, started, ['a']);
      const next = controllable(started, 'b');
      const run = gate.run(next.task);
      await nextTurn();
      expect(started).toEqual(['a', 'b']);
      next.finish();
      expect(await run).toBe('b');
    });

    it('given regatherMs has run out with nobody back, when a task comes, then it starts in the next turn', async () => {
      const gate = new WaveGate({ maxWaitMs: 10_000, regatherMs: 20 });
      const started: string[] = [];
      await endedWave(gate, started, ['a', 'b']);
      await sleep(50);
      const next = controllable(started, 'c');
      const run = gate.run(next.task);
      await nextTurn();
      expect(started).toEqual(['a', 'b', 'c']);
      next.finish();
      expect(await run).toBe('c');
    });
  });
});
