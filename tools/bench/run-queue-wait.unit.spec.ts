import { Worker } from 'node:worker_threads';
import { runQueueWaitBetween, threadRunQueueWaits, type ThreadWaits } from './run-queue-wait';

describe('run-queue wait between two readings', () => {
  it('given a thread that ended in between, when the waits are compared, then its time is left out rather than subtracted', () => {
    const before = new Map([
      [1, 10],
      [2, 500],
    ]);
    const after = new Map([
      [1, 12.5],
      [3, 4],
    ]);
    expect(runQueueWaitBetween(before, after)).toBe(2.5 + 4);
  });

  it('given no earlier reading, when compared, then every thread counts from zero', () => {
    expect(runQueueWaitBetween(undefined, new Map([[7, 3]]))).toBe(3);
  });

  it('given this process, when read, then the main thread is there and a worker that ended is gone', async () => {
    const worker = new Worker('setTimeout(() => {}, 50)', { eval: true });
    await new Promise((resolve) => worker.once('online', resolve));
    const during = threadRunQueueWaits('self');
    await new Promise((resolve) => worker.once('exit', resolve));
    const after = await readingWithoutAThreadOf(during);
    expect(after.has(process.pid)).toBe(true);
    expect([...during.keys()].some((tid) => !after.has(tid))).toBe(true); // the worker's thread
    expect(runQueueWaitBetween(during, after)).toBeGreaterThanOrEqual(0);
  });
});

/**
 * 'exit' can be emitted before the kernel has removed the worker's thread from
 * /proc (seen on a loaded CI machine), so read again for a while.
 */
async function readingWithoutAThreadOf(during: ThreadWaits, deadlineMs = 5_000): Promise<ThreadWaits> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const reading = threadRunQueueWaits('self');
    if ([...during.keys()].some((tid) => !reading.has(tid)) || Date.now() > until) return reading;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
