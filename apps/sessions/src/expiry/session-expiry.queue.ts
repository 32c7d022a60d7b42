/**
 * BullMQ queues of the sessions service. Values are Redis key names: do not
 * rename without a migration (jobs already queued under the old name would
 * never run).
 */
export enum SessionsQueue {
  SessionExpiry = 'session-expiry',
}

/** BullMQ key prefix: every queue key starts with PP_NAMESPACE, like every other Redis key. */
export const queuePrefix = (namespace: string): string => (namespace ? `${namespace}:bull` : 'bull');

export interface SessionExpiryJob {
  session_id: string;
}
