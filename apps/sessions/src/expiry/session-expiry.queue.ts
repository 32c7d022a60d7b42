/**
 * BullMQ queues of the sessions service. Values are Redis key names: do not
 * rename without a migration (jobs already queued under the old name would
 * never run).
 */
export enum SessionsQueue {
  SessionExpiry = 'session-expiry',
}


export interface SessionExpiryJob {
  session_id: string;
}
