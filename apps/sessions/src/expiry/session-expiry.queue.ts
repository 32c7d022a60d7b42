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
  /** The deadline the job was queued for; a session whose deadline moved later has a newer job (absent in jobs queued before deadlines could move). */
  expires_at?: string;
}

/** One job per session and deadline: a replayed create adds nothing, a later deadline adds its own job. */
export const sessionExpiryJobId = (sessionId: string, expiresAt: string): string => `${sessionId}.${Date.parse(expiresAt)}`;
