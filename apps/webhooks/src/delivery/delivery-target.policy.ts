import type { WebhookEndpointStatus } from '@pp/contracts';

/** What the rule needs to know of the endpoint a delivery goes to. */
export interface DeliveryTarget {
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  deleted_at: Date | null;
}

/**
 * Why a claimed attempt must not be sent, or null when it may: a deleted or
 * disabled endpoint gets nothing more, and the reason closes its delivery
 * (it is the attempt's error message).
 */
export function notSentBecause(endpoint: DeliveryTarget): string | null {
  if (endpoint.deleted_at) return 'not sent: the endpoint was deleted';
  if (endpoint.status !== 'enabled') return `not sent: the endpoint is disabled (${endpoint.disabled_reason ?? 'disabled'})`;
  return null;
}

/** What a claim knows of the attempt it took: its number, and whether it replaced one left unanswered (its worker stopped). */
export interface ClaimedAttemptFacts {
  attempt: number;
  afterStall: boolean;
}

/**
 * Why an attempt that follows a stalled one must not be sent: the stalled one counts as failed, and when it was the
 * schedule's last (or a resend's, which has no schedule left), nothing is left to send. Without this, a delivery whose
 * last attempts keep stalling would be sent again at every lease's end, past its schedule.
 */
export function notSentAfterStall(claimed: ClaimedAttemptFacts, lastScheduledAttempt: number): string | null {
  if (claimed.afterStall && claimed.attempt > lastScheduledAttempt) {
    return 'not sent: the last attempt got no answer recorded (its worker stopped) and the schedule has none left';
  }
  return null;
}
