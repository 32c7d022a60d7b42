import { type QuietClock, quietBetween, waitUntilQuiet } from './quiet-wait';

/** A clock that only moves when slept on. */
const fakeClock = (): QuietClock & { slept: number[] } => {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
};

/** Readings in turn, a map of pid → CPU ms each. */
const readings = (...maps: Array<Record<number, number | undefined>>) => {
  let next = 0;
  return () => new Map(Object.entries(maps[Math.min(next++, maps.length - 1)]).map(([pid, ms]) => [Number(pid), ms]));
};

describe('waiting for the stack to go quiet before a window', () => {
  it('given processes under 25 ms a second over a 2 s look, then they are quiet; at 25 ms a second or more, not', () => {
    const before = new Map([[1, 100], [2, 500]]);
    expect(quietBetween(before, new Map([[1, 149], [2, 510]]), 2000)).toBe(true);
    expect(quietBetween(before, new Map([[1, 150], [2, 510]]), 2000)).toBe(false);
  });

  it('given a process that started or stopped during the look, then it does not decide it', () => {
    expect(quietBetween(new Map([[1, 0]]), new Map([[1, undefined], [2, 10_000]]), 2000)).toBe(true);
  });

  it('given a stack already quiet, when waited for, then one look is enough and it says quiet', async () => {
    const clock = fakeClock();
    const wait = await waitUntilQuiet(readings({ 1: 0 }, { 1: 10 }), 15_000, { clock });
    expect(wait).toEqual({ waited_ms: 2000, quiet: true });
  });

  it('given a stack busy for two looks, when waited for, then it answers after the first quiet look', async () => {
    const clock = fakeClock();
    const wait = await waitUntilQuiet(readings({ 1: 0 }, { 1: 500 }, { 1: 500 }, { 1: 900 }, { 1: 900 }, { 1: 910 }), 15_000, { clock });
    expect(wait).toEqual({ waited_ms: 6000, quiet: true });
  });

  it('given a stack that never goes quiet, when waited for, then the bound ends the wait and says it was not quiet', async () => {
    const clock = fakeClock();
    let ms = 0;
    const wait = await waitUntilQuiet(() => new Map([[1, (ms += 1000)]]), 15_000, { clock });
    expect(wait).toEqual({ waited_ms: 16_000, quiet: false });
    expect(clock.slept).toHaveLength(8);
  });
});
