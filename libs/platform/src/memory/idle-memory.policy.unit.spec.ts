import { afterRelease, decideIdleRelease, type IdleMemoryPolicy, type IdleMemoryState, initialIdleMemoryState } from './idle-memory.policy';

const MB = 1024 * 1024;
const policy: IdleMemoryPolicy = { lookEveryMs: 2500, quietBelow: 0.02, quietForMs: 10_000, minGrowthBytes: 16 * MB };
/** A look at `at` covering the 2.5 s before it. */
const quiet = (at: number, rssMb: number) => ({ from: at - 2500, at, utilization: 0.005, rssBytes: rssMb * MB });
const busy = (at: number, rssMb: number) => ({ from: at - 2500, at, utilization: 0.4, rssBytes: rssMb * MB });

/** Feeds the samples in order; answers the times at which a release was decided. */
function releasesOver(samples: ReturnType<typeof quiet>[], start: IdleMemoryState = initialIdleMemoryState(100 * MB)): number[] {
  let state = start;
  const released: number[] = [];
  for (const sample of samples) {
    const decision = decideIdleRelease(policy, state, sample);
    state = decision.state;
    if (decision.release) {
      released.push(sample.at);
      state = afterRelease(state, 100 * MB);
    }
  }
  return released;
}

describe('when to give memory back', () => {
  it('given work that left 150 MB, when the process stays quiet: released once, at the first look 10 s into the quiet spell', () => {
    // Quiet from 0 (the end of the busy look): the look at 10,000 covers 7,500-10,000.
    const samples = [busy(0, 150), quiet(2500, 150), quiet(5000, 150), quiet(7500, 150), quiet(10_000, 150), quiet(12_500, 150), quiet(15_000, 150), quiet(30_000, 150)];
    expect(releasesOver(samples)).toEqual([10_000]);
  });

  it('given a process that never worked since start, when it idles with more memory: nothing to release', () => {
    expect(releasesOver([quiet(0, 150), quiet(20_000, 150), quiet(40_000, 150)])).toEqual([]);
  });

  it('given work that left little (a health check, a scrape), when quiet: no collection for it', () => {
    expect(releasesOver([busy(0, 110), quiet(2500, 110), quiet(15_000, 110), quiet(30_000, 110)])).toEqual([]);
  });

  it('given steady work, when never quiet for 10 s: never released, whatever the memory', () => {
    const samples = Array.from({ length: 20 }, (_, i) => (i % 3 === 2 ? busy(i * 2500, 200) : quiet(i * 2500, 200)));
    expect(releasesOver(samples)).toEqual([]);
  });

  it('given a second burst of work after a release, when quiet again: released again', () => {
    const samples = [busy(0, 150), quiet(2500, 150), quiet(12_500, 150), busy(20_000, 160), quiet(22_500, 160), quiet(30_000, 160)];
    expect(releasesOver(samples)).toEqual([12_500, 30_000]);
  });
});
