/** One look at the process: how busy its event loop was since the last look, and its resident memory now. */
export interface MemorySample {
  /** Epoch milliseconds of the last look, and of this one: the span the utilization covers. */
  from: number;
  at: number;
  /** Share of that span the event loop spent running (performance.eventLoopUtilization). */
  utilization: number;
  rssBytes: number;
}

export interface IdleMemoryPolicy {
  /** How often the process looks at itself. */
  lookEveryMs: number;
  /** Below this utilization a sample is quiet. */
  quietBelow: number;
  /** How long the process must have been quiet. */
  quietForMs: number;
  /** How much its memory must have grown since it was last released. */
  minGrowthBytes: number;
}

/** Services: a look every 2.5 s; quiet is under 2 % busy for 10 s; a release needs 16 MB more than the last one left. */
export const IDLE_MEMORY_POLICY: IdleMemoryPolicy = { lookEveryMs: 2500, quietBelow: 0.02, quietForMs: 10_000, minGrowthBytes: 16 * 1024 * 1024 };

export interface IdleMemoryState {
  /** When the current quiet spell began; null while busy. */
  quietSince: number | null;
  /** Resident memory just after the last release (start-up's, at first). */
  releasedRss: number;
  /** Whether the process has worked since the last release: a process that stays idle is released once, not on every look. */
  workedSince: boolean;
}

export const initialIdleMemoryState = (rssBytes: number): IdleMemoryState => ({ quietSince: null, releasedRss: rssBytes, workedSince: false });

/**
 * Whether to give memory back now: once the process has been quiet for a
 * while after some work, and holds markedly more than after the last
 * release. A collection that compacts the heap stops the event loop for
 * tens of milliseconds, so it waits for a quiet spell, runs once per spell,
 * and not for the little that a health check or a metrics scrape leaves.
 */
export function decideIdleRelease(policy: IdleMemoryPolicy, state: IdleMemoryState, sample: MemorySample): { state: IdleMemoryState; release: boolean } {
  if (sample.utilization >= policy.quietBelow) return { state: { ...state, quietSince: null, workedSince: true }, release: false };
  const quietSince = state.quietSince ?? sample.from;
  const release = state.workedSince && sample.at - quietSince >= policy.quietForMs && sample.rssBytes - state.releasedRss >= policy.minGrowthBytes;
  return { state: { ...state, quietSince }, release };
}

/** After a release: what it left is the new mark, and the next one waits for more work. */
export const afterRelease = (state: IdleMemoryState, rssBytes: number): IdleMemoryState => ({ ...state, releasedRss: rssBytes, workedSince: false });
