import { WebhookDeliveryStatus } from '@pp/contracts';

/** Longest wait a Retry-After header can impose before the next attempt. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
/** Each scheduled wait is stretched or shortened by up to this fraction, so failing endpoints are not hit in lockstep. */
export const JITTER = 0.1;

export interface AttemptOutcome {
  httpStatus: number | null;
  retryAfterMs: number | null;
}

/** Added to the longest wait between two attempts: the queue, the sweeper and the attempt itself take time too. */
export const STREAK_GAP_SLACK_MS = 60 * 60 * 1000;

export interface RetryPolicy {
  /** Wait before attempt n+1 is scheduleMs[n]; its length is the number of automatic attempts. */
  scheduleMs: readonly number[];
  /** An endpoint failing continuously this long gets disabled (by a delivery that has used all its attempts). */
  disableAfterMs: number;
  /**
   * A failure after no failure for longer than this starts a new failure
   * streak (streakGapMs): longer than any wait between two attempts of one
   * failing delivery, so a delivery that keeps failing keeps its endpoint's streak going.
   */
  streakGapMs: number;
}

/**
 * The quiet spell that ends a failure streak: the longest wait the schedule
 * (with its jitter) or a Retry-After can put between two attempts, plus
 * STREAK_GAP_SLACK_MS. With the default schedule, 25 hours.
 */
export const streakGapMs = (scheduleMs: readonly number[]): number =>
  Math.max(MAX_RETRY_AFTER_MS, Math.round(Math.max(0, ...scheduleMs) * (1 + JITTER))) + STREAK_GAP_SLACK_MS;

/** The endpoint's failure streak as the attempt's claim read it. */
export interface FailureStreak {
  /** When the streak began (null: the last attempt succeeded, or none failed). */
  failingSince: Date | null;
  /** When its latest failure was recorded. */
  lastFailureAt: Date | null;
}

/**
 * When the streak a failure at `now` belongs to began: the endpoint's
 * streak while its latest failure is no older than the policy's gap,
 * otherwise a new one, starting now.
 */
export function streakStart(streak: FailureStreak, policy: Pick<RetryPolicy, 'streakGapMs'>, now: Date): Date {
  const { failingSince, lastFailureAt } = streak;
  if (!failingSince || !lastFailureAt || now.getTime() - lastFailureAt.getTime() > policy.streakGapMs) return now;
  return failingSince;
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
 * asks), or no more attempts. 410 Gone disables the endpoint at once. A
 * delivery that has used all its attempts disables its endpoint when the
 * endpoint's failure streak (`streak`, as the claim read it) has lasted
 * longer than the policy allows; a streak never cuts a delivery's own
 * schedule short, and a failure after a quiet spell longer than the policy's
 * gap starts a new streak.
 */
export function decideAfterAttempt(
  outcome: AttemptOutcome,
  attempt: number,
  streak: FailureStreak,
  policy: RetryPolicy,
  now: Date,
  random: () => number = Math.random,
): AttemptDecision {
  if (isSuccess(outcome.httpStatus)) return { status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null };
  if (outcome.httpStatus === 410) {
    return { status: WebhookDeliveryStatus.Exhausted, nextAttemptAt: null, disableEndpoint: 'endpoint answered 410 Gone' };
  }
  if (attempt >= policy.scheduleMs.length) {
    const since = streakStart(streak, policy, now);
    if (now.getTime() - since.getTime() >= policy.disableAfterMs) {
      return {
        status: WebhookDeliveryStatus.Exhausted,
        nextAttemptAt: null,
        disableEndpoint: `every attempt has failed since ${since.toISOString()}`,
        streakSince: since,
      };
    }
    return { status: WebhookDeliveryStatus.Exhausted, nextAttemptAt: null, disableEndpoint: null };
  }
  const scheduled = jittered(policy.scheduleMs[attempt], random);
  const wait = Math.max(scheduled, Math.min(outcome.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
  return { status: WebhookDeliveryStatus.Failed, nextAttemptAt: new Date(now.getTime() + wait), disableEndpoint: null };
}

/**
 * The wait, after its lease, before the next attempt of a delivery whose
 * attempt number `attempt` never recorded an outcome (its worker stopped):
 * what a failure of that attempt would have waited (without jitter); after
 * the last, the schedule's last wait, since an attempt that may not have
 * been sent is made once more rather than dropped.
 */
export const waitAfterStallMs = (attempt: number, policy: Pick<RetryPolicy, 'scheduleMs'>): number =>
  policy.scheduleMs[Math.min(attempt, policy.scheduleMs.length - 1)] ?? 0;

/** Waits before the first attempt (the schedule's first entry, jittered). */
export const firstAttemptDelayMs = (policy: Pick<RetryPolicy, 'scheduleMs'>, random: () => number = Math.random): number =>
  jittered(policy.scheduleMs[0] ?? 0, random);

const jittered = (ms: number, random: () => number): number => Math.round(ms * (1 - JITTER + 2 * JITTER * random()));
