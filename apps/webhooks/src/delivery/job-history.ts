/** What a delivery job's BullMQ counters and times tell of its past. */
export interface JobHistory {
  timestamp: number;
  opts: { delay?: number };
  attemptsStarted: number;
  attemptsMade: number;
  stalledCounter: number;
}

/**
 * How often the job was put back for a slow endpoint: its starts but the
 * first, less those after a run that threw (BullMQ's retries) or stalled; a
 * put-back (moveToDelayed with DelayedError) spends no attempt.
 */
export const timesHeld = (job: JobHistory): number => job.attemptsStarted - 1 - job.attemptsMade - job.stalledCounter;

/** When a job was first due: added at `timestamp` with a delay (a put-back changes the job's delay, not its options). */
export const dueTimeOf = (job: JobHistory): number => job.timestamp + (job.opts.delay ?? 0);
