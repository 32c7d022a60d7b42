import { readdirSync, readFileSync } from 'node:fs';

/**
 * ms a process's threads have spent runnable but not running: the second
 * field of each /proc/<pid>/task/<tid>/schedstat. It counts from the moment a
 * thread is woken (or preempted) to the moment it runs again, so it holds
 * queueing for the cores and, on a virtual machine, the time a halted virtual
 * CPU takes to come back. A thread that ended takes its time with it.
 */
export function runQueueWaitMs(pid: number | 'self'): number {
  let waitedNs = 0;
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of threads) {
    try {
      waitedNs += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
    } catch {
      // ended meanwhile
    }
  }
  return waitedNs / 1e6;
}
