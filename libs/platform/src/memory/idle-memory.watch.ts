import { performance } from 'node:perf_hooks';
import { afterRelease, decideIdleRelease, IDLE_MEMORY_POLICY, type IdleMemoryPolicy, initialIdleMemoryState } from './idle-memory.policy';
import { releaseUnusedMemory } from './release-unused-memory';

/**
 * Gives memory back when the service goes quiet after work
 * (idle-memory.policy.ts). V8 keeps what a burst of work made it commit:
 * its memory reducer judges the allocation rate by the last collections,
 * and after load services held twice their fresh idle size. The timer never
 * keeps the process alive. Answers a function that stops the watch.
 */
export function watchIdleMemory(
  policy: IdleMemoryPolicy = IDLE_MEMORY_POLICY,
  release: () => void = releaseUnusedMemory,
): () => void {
  let state = initialIdleMemoryState(process.memoryUsage.rss());
  let last = performance.eventLoopUtilization();
  let lastAt = Date.now();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const at = Date.now();
    const sample = { from: lastAt, at, utilization: performance.eventLoopUtilization(now, last).utilization, rssBytes: process.memoryUsage.rss() };
    [last, lastAt] = [now, at];
    const decision = decideIdleRelease(policy, state, sample);
    state = decision.state;
    if (!decision.release) return;
    release();
    state = afterRelease(state, process.memoryUsage.rss());
    [last, lastAt] = [performance.eventLoopUtilization(), Date.now()]; // the collection's own time is not work
  }, policy.lookEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
