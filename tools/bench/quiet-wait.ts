/**
 * Waiting for the stack to finish what the last load left (outbox publication, projections, webhook attempts)
 * before the next window is timed: without it, that work lands in the next path's window and is counted as
 * its own (its CPU, its latency, the interleaved ratio's baseline windows).
 */

/** How a wait for quiet went: how long it took, and whether the stack was quiet at its end or the bound cut it short. */
export interface QuietWait {
  waited_ms: number;
  quiet: boolean;
}

/** How a row records the wait before its window. */
export const quietDetail = (wait: QuietWait) => ({ quiet_wait_ms: wait.waited_ms, quiet_before: wait.quiet });

/** CPU ms each process (by pid) has spent so far; undefined for one that is gone. */
export type CpuByPid = ReadonlyMap<number, number | undefined>;

/** What a process may spend in a second and still count as quiet: idle, each service spends 4-18 ms (sweeps, polls, timers). */
export const QUIET_MS_PER_SECOND = 25;
/** One look: long enough that the 10 ms steps of the kernel's CPU clock do not decide it. */
export const LOOK_MS = 2000;

/** Whether every process present in both readings spent less than `limitPerSecond` a second between them, `lookMs` apart. */
export function quietBetween(before: CpuByPid, after: CpuByPid, lookMs: number, limitPerSecond = QUIET_MS_PER_SECOND): boolean {
  for (const [pid, ms] of after) {
    const earlier = before.get(pid);
    // A process that appeared or went away in between cannot be read over the look: it does not decide it.
    if (ms === undefined || earlier === undefined) continue;
    if (ms - earlier >= (limitPerSecond * lookMs) / 1000) return false;
  }
  return true;
}

export interface QuietClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: QuietClock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/**
 * Looks (`lookMs` each) until one look finds every process quiet, or `maxMs` have passed: never longer than
 * `maxMs` plus one look, so a stack that stays busy (or a machine busy with other work) cannot hang the bench;
 * the answer then says it was not quiet.
 */
export async function waitUntilQuiet(read: () => CpuByPid, maxMs: number, { lookMs = LOOK_MS, clock = realClock }: { lookMs?: number; clock?: QuietClock } = {}): Promise<QuietWait> {
  const started = clock.now();
  for (;;) {
    const before = read();
    await clock.sleep(lookMs);
    const quiet = quietBetween(before, read(), lookMs);
    const waited = clock.now() - started;
    if (quiet || waited >= maxMs) return { waited_ms: Math.round(waited), quiet };
  }
}
