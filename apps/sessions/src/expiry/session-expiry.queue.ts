import type { TracedJobData } from '@pp/platform';

/**
 * BullMQ queues of the sessions service. Values are Redis key names: do not
 * rename without a migration (jobs already queued under the old name would
 * never run).
 */
export enum SessionsQueue {
  SessionExpiry = 'session-expiry',
}

/** The session to expire, and the trace context of the request that created it (its span links there). */
export interface SessionExpiryJob extends TracedJobData {
  session_id: string;
}
