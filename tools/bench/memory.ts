import { readFileSync } from 'node:fs';
import type { ServiceName } from '@pp/contracts';
import type { TestStack } from '@pp/testing';
import { cpuMs } from './process-cpu';
import { type QuietWait, waitUntilQuiet } from './quiet-wait';
import { highestReadings, type RssReading } from './idle-rss';

/**
 * Waits until every service (and each of `alsoPids`: the baseline, the floors) has been quiet through one
 * 2 s look, or `maxMs` have passed (quiet-wait.ts). The chain finishes a path's work (hand-offs,
 * publication, webhook attempts) after the path's own window: the next window would count it as its own,
 * and each service's idle-memory watch counts its quiet spell only from then (libs/platform/src/memory),
 * so a settle timed from the path's end can read a service before it gives memory back.
 */
export function waitUntilStackQuiet(stack: TestStack, maxMs: number, alsoPids: () => Iterable<number> = () => []): Promise<QuietWait> {
  const spent = () => {
    const pids = [...stack.processes().map((proc) => proc.pid), ...alsoPids()].filter((pid): pid is number => pid !== undefined);
    return new Map(pids.map((pid) => [pid, cpuMs(pid)]));
  };
  return waitUntilQuiet(spent, maxMs);
}

/** Each service's resident memory now, in MB; a process gone meanwhile is left out. */
function readRss(stack: TestStack): Partial<Record<ServiceName, number>> {
  const result: Partial<Record<ServiceName, number>> = {};
  for (const proc of stack.processes()) {
    try {
      const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      result[proc.service] = Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // stopped meanwhile
    }
  }
  return result;
}

/** Resident memory (MB) of each service process after it has been idle a few seconds. */
export async function measureIdleMemory(stack: TestStack, idleMs = 3000): Promise<Partial<Record<ServiceName, number>>> {
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  return readRss(stack);
}

/** Each service's highest RSS over several readings, the first reading, and every reading. */
export interface IdleRssSamples {
  highest_mb: Record<string, number>;
  first_mb: Record<string, number>;
  readings: RssReading[];
}

/**
 * Each service's RSS read at each of `offsetsMs` (ms after the call; idle-rss.ts), and the highest of them. One
 * reading a few seconds after the services' start-up collection (run-service.ts) misses what their timers, sweeps and
 * polls grow back in the next half minute; the highest reading is the idle figure. The caller runs other idle
 * work meanwhile (the idle CPU window), so these seconds are not all added to the run.
 */
export async function sampleIdleMemory(stack: TestStack, offsetsMs: readonly number[]): Promise<IdleRssSamples> {
  const started = Date.now();
  const readings: RssReading[] = [];
  for (const offset of offsetsMs) {
    // Against the start, not the last reading, so the schedule does not drift by the time each reading takes.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + offset - Date.now())));
    readings.push({ at_ms: Date.now() - started, rss_mb: readRss(stack) });
  }
  return { ...highestReadings(readings), readings };
}
