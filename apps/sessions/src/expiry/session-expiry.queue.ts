/**
 * BullMQ queues of the sessions service. Values are Redis key names: do not
 * rename without a migration (jobs already queued under the old name would
 * never run).
 */
export enum SessionsQueue {
  SessionExpiry = 'session-expiry',
}

/** The job scheduler that puts one sweep job in the queue per interval, whatever the number of replicas. */
export const EXPIRY_SWEEP_SCHEDULER = 'sweep-overdue-sessions';

/** The name of the scheduler's jobs; a job of another name was queued by an earlier version for one session, which the sweep covers. */
export const EXPIRY_SWEEP_JOB = 'sweep';
