import { readFileSync } from 'node:fs';
import type { ServiceName } from '@pp/contracts';
import type { TestStack } from '@pp/testing';
import { cpuMs } from './process-cpu';

/** What a service may spend in a second and still count as quiet: idle, each spends 4-18 ms (sweeps, polls, timers). */
const QUIET_MS_PER_SECOND = 25;
const LOOK_MS = 2000;

/**
 * Waits until every service has been quiet through one 2 s look, or
 * `maxMs` have passed; answers the ms waited. The chain finishes a path's
 * work (hand-offs, publication, webhook attempts) after the path's own
 * window, and each service's idle-memory watch counts its quiet spell only
 * from then (libs/platform/src/memory), so a settle timed from the path's
 * end can read a service before it gives memory back.
 */
export async function waitUntilStackQuiet(stack: TestStack, maxMs: number): Promise<number> {
  const started = Date.now();
  const spent = () => new Map(stack.processes().map((proc) => [proc.pid, proc.pid === undefined ? undefined : cpuMs(proc.pid)]));
  for (;;) {
    const before = spent();
    await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
    const after = spent();
    const busy = [...after].some(([pid, ms]) => ms !== undefined && ms - (before.get(pid) ?? ms) >= (QUIET_MS_PER_SECOND * LOOK_MS) / 1000);
    if (!busy || Date.now() - started >= maxMs) return Date.now() - started;
  }
}

/** Resident memory (MB) of each service process after it has been idle a few seconds. */
export async function measureIdleMemory(stack: TestStack, idleMs = 3000): Promise<Partial<Record<ServiceName, number>>> {
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const result: Partial<Record<ServiceName, number>> = {};
  for (const proc of stack.processes()) {
    const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    result[proc.service] = Math.round(kb / 1024);
  }
  return result;
}
