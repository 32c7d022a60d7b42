import { readdirSync, readFileSync } from 'node:fs';

/** ms each thread of a process has waited for a CPU so far, by thread id. */
export type ThreadWaits = Map<number, number>;

/**
 * ms a process's threads have spent runnable but not running: the second
 * field of each /proc/<pid>/task/<tid>/schedstat. It counts from the moment a
 * thread is woken (or preempted) to the moment it runs again, so it holds
 * queueing for the cores and, on a virtual machine, the time a halted virtual
 * CPU takes to come back.
 */
export function threadRunQueueWaits(pid: number | 'self'): ThreadWaits {
  const waits: ThreadWaits = new Map();
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return waits;
  }
  for (const tid of threads) {
    try {
      waits.set(Number(tid), Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]) / 1e6);
    } catch {
      // ended meanwhile
    }
  }
  return waits;
}

/**
 * The waiting done between two readings of one process. A thread that began
 * in between counts from zero; one that ended took its time with it (the
 * ingest's idle workers end), so its part is missing rather than subtracted.
 */
export function runQueueWaitBetween(before: ThreadWaits | undefined, after: ThreadWaits): number {
  let waited = 0;
  for (const [tid, ms] of after) waited += ms - (before?.get(tid) ?? 0);
  return waited;
}
