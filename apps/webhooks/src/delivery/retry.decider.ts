import { WebhookDeliveryStatus } from '@pp/contracts';

/** Longest wait a Retry-After header can impose before the next attempt. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
/** Each scheduled wait is stretched or shortened by up to this fraction, so failing endpoints are not hit in lockstep. */
export const JITTER = 0.1;

export interface AttemptOutcome {
  httpStatus: number | null;
  retryAfterMs: number | null;
}

export interface RetryPolicy {
  /** Wait before attempt n+1 is scheduleMs[n]; its length is the number of automatic attempts. */
  scheduleMs: readonly number[];
  /** An endpoint failing continuously this long gets disabled. */
  disableAfterMs: number;
}

export interface AttemptDecision {
  status: WebhookDeliveryStatus.Success | WebhookDeliveryStatus.Failed | WebhookDeliveryStatus.Exhausted;
  nextAttemptAt: Date | null;
  /** Set when the endpoint must be disabled, with the reason it shows. */
  disableEndpoint: string | null;
  /**
   * With a disable for a failure streak: the streak's start it was judged on. It holds only while the endpoint's
   * streak is still that one, so an endpoint enabled again or answered with success meanwhile stays enabled.
   */
  streakSince?: Date;
}

export const isSuccess = (httpStatus: number | null): boolean => httpStatus !== null && httpStatus >= 200 && httpStatus < 300;

/**
 * What follows attempt number `attempt` (1-based): success, another attempt
 * at a jittered time from the schedule (never sooner than a Retry-After
 * asks), or no more attempts. 410 Gone disables the endpoint at once; an
 * endpoint whose attempts have failed since `failingSince` for longer than
 * the policy allows is disabled too.
 */
export function decideAfterAttempt(
  outcome: AttemptOutcome,
  attempt: number,
  failingSince: Date | null,
  policy: RetryPolicy,
  now: Date,
  random: () => number = Math.random,
): AttemptDecision {
  if (isSuccess(outcome.httpStatus)) return { status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null };
  if (outcome.httpStatus === 410) {
    return { status: WebhookDeliveryStatus.Exhausted, nextAttemptAt: null, disableEndpoint: 'endpoint answered 410 Gone' };
  }
  const since = failingSince ?? now;
  if (now.getTime() - since.getTime() >= policy.disableAfterMs) {
    return {
      status: WebhookDeliveryStatus.Exhausted,
      nextAttemptAt: null,
      disableEndpoint: `every attempt has failed since ${since.toISOString()}`,
      streakSince: since,
    };
  }
  if (attempt >= policy.scheduleMs.length) return { status: WebhookDeliveryStatus.Exhausted, nextAttemptAt: null, disableEndpoint: null };
  const scheduled = jittered(policy.scheduleMs[attempt], random);
  const wait = Math.max(scheduled, Math.min(outcome.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
  return { status: WebhookDeliveryStatus.Failed, nextAttemptAt: new Date(now.getTime() + wait), disableEndpoint: null };
}

/** Waits before the first attempt (the schedule's first entry, jittered). */
export const firstAttemptDelayMs = (policy: RetryPolicy, random: () => number = Math.random): number =>
  jittered(policy.scheduleMs[0] ?? 0, random);

const jittered = (ms: number, random: () => number): number => Math.round(ms * (1 - JITTER + 2 * JITTER * random()));
