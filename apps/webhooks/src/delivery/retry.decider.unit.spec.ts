import { WebhookDeliveryStatus } from '@pp/contracts';
import { decideAfterAttempt, type FailureStreak, MAX_RETRY_AFTER_MS, type RetryPolicy, STREAK_GAP_SLACK_MS, streakGapMs, waitAfterStallMs } from './retry.decider';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const policy: RetryPolicy = { scheduleMs: [0, 5_000, 300_000, 1_800_000], disableAfterMs: 5 * DAY, streakGapMs: 25 * HOUR };
/** The endpoint's last attempt succeeded (or it never failed). */
const NO_STREAK: FailureStreak = { failingSince: null, lastFailureAt: null };
const now = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms);
const fail = (httpStatus: number | null, retryAfterMs: number | null = null) => ({ httpStatus, retryAfterMs });

describe('decideAfterAttempt', () => {
  it('treats every 2xx as success', () => {
    for (const status of [200, 201, 204, 299]) {
      expect(decideAfterAttempt(fail(status), 1, NO_STREAK, policy, now)).toEqual({
        status: WebhookDeliveryStatus.Success,
        nextAttemptAt: null,
        disableEndpoint: null,
      });
    }
  });

  it('schedules attempt n+1 after the n-th wait of the schedule, within the jitter', () => {
    expect(decideAfterAttempt(fail(500), 1, NO_STREAK, policy, now, () => 0.5).nextAttemptAt).toEqual(at(5_000));
    expect(decideAfterAttempt(fail(500), 2, NO_STREAK, policy, now, () => 0).nextAttemptAt).toEqual(at(270_000));
    expect(decideAfterAttempt(fail(null), 3, NO_STREAK, policy, now, () => 1).nextAttemptAt).toEqual(at(1_980_000));
    expect(decideAfterAttempt(fail(302), 1, NO_STREAK, policy, now).status).toBe(WebhookDeliveryStatus.Failed);
  });

  it('is exhausted once every scheduled attempt was made (also after a manual resend)', () => {
    expect(decideAfterAttempt(fail(500), 4, NO_STREAK, policy, now)).toEqual({
      status: WebhookDeliveryStatus.Exhausted,
      nextAttemptAt: null,
      disableEndpoint: null,
    });
    expect(decideAfterAttempt(fail(500), 7, NO_STREAK, policy, now).status).toBe(WebhookDeliveryStatus.Exhausted);
  });

  it('waits at least as long as Retry-After asks, up to a day', () => {
    expect(decideAfterAttempt(fail(429, 60_000), 1, NO_STREAK, policy, now, () => 0.5).nextAttemptAt).toEqual(at(60_000));
    expect(decideAfterAttempt(fail(503, 1_000), 2, NO_STREAK, policy, now, () => 0.5).nextAttemptAt).toEqual(at(300_000));
    expect(decideAfterAttempt(fail(429, 30 * DAY), 1, NO_STREAK, policy, now, () => 0.5).nextAttemptAt).toEqual(at(MAX_RETRY_AFTER_MS));
  });

  it('stops and disables the endpoint on 410 Gone', () => {
    expect(decideAfterAttempt(fail(410), 1, NO_STREAK, policy, now)).toEqual({
      status: WebhookDeliveryStatus.Exhausted,
      nextAttemptAt: null,
      disableEndpoint: 'endpoint answered 410 Gone',
    });
  });

  describe('an endpoint’s failure streak', () => {
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const LAST = policy.scheduleMs.length;

    it('given a streak that began 6 days ago, its latest failure 2 days ago (a delivery ran out of attempts), when a new delivery’s first attempt fails, then it is retried on schedule and the endpoint stays enabled', () => {
      const decision = decideAfterAttempt(fail(500), 1, { failingSince: ago(6 * DAY), lastFailureAt: ago(2 * DAY) }, policy, now, () => 0.5);
      expect(decision).toEqual({ status: WebhookDeliveryStatus.Failed, nextAttemptAt: at(5_000), disableEndpoint: null });
    });

    it('given an endpoint failing without a break for 6 days, when a delivery’s attempt fails with attempts left, then it is retried: a streak never cuts a delivery’s schedule short', () => {
      const streak = { failingSince: ago(6 * DAY), lastFailureAt: ago(HOUR) };
      for (let attempt = 1; attempt < LAST; attempt++) {
        expect(decideAfterAttempt(fail(500), attempt, streak, policy, now)).toMatchObject({ status: WebhookDeliveryStatus.Failed, disableEndpoint: null });
      }
    });

    it('given an endpoint failing without a break for the whole period, when a delivery’s last attempt fails, then it is exhausted and disables the endpoint for that streak', () => {
      const since = ago(5 * DAY);
      expect(decideAfterAttempt(fail(500), LAST, { failingSince: since, lastFailureAt: ago(policy.streakGapMs) }, policy, now)).toEqual({
        status: WebhookDeliveryStatus.Exhausted,
        nextAttemptAt: null,
        disableEndpoint: `every attempt has failed since ${since.toISOString()}`,
        streakSince: since,
      });
      // A resend's attempt, past the schedule, judges the same way.
      expect(decideAfterAttempt(fail(null), LAST + 3, { failingSince: since, lastFailureAt: ago(HOUR) }, policy, now).streakSince).toEqual(since);
    });

    it('given a streak shorter than the period, when a delivery’s last attempt fails, then it is exhausted and the endpoint stays enabled', () => {
      expect(decideAfterAttempt(fail(500), LAST, { failingSince: ago(5 * DAY - 1), lastFailureAt: ago(HOUR) }, policy, now)).toEqual({
        status: WebhookDeliveryStatus.Exhausted,
        nextAttemptAt: null,
        disableEndpoint: null,
      });
    });

    it('given no failure for longer than the gap, when a delivery’s last attempt fails, then a new streak starts and the endpoint stays enabled', () => {
      const quiet = { failingSince: ago(30 * DAY), lastFailureAt: ago(policy.streakGapMs + 1) };
      expect(decideAfterAttempt(fail(503), LAST, quiet, policy, now)).toEqual({ status: WebhookDeliveryStatus.Exhausted, nextAttemptAt: null, disableEndpoint: null });
      // A streak whose latest failure is unknown is not taken as running either.
      expect(decideAfterAttempt(fail(503), LAST, { failingSince: ago(30 * DAY), lastFailureAt: null }, policy, now).disableEndpoint).toBeNull();
    });

    it('given a schedule, when the streak’s gap is derived, then it outlasts every wait between two attempts (jitter and Retry-After included)', () => {
      expect(streakGapMs([0, 5_000, 300_000, 36_000_000])).toBe(MAX_RETRY_AFTER_MS + STREAK_GAP_SLACK_MS); // 25 h
      expect(streakGapMs([0, 2 * DAY])).toBe(190_080_000 + STREAK_GAP_SLACK_MS); // 2 days and 10 %, and an hour
    });
  });
});

describe('waitAfterStallMs', () => {
  const policy = { scheduleMs: [0, 5_000, 300_000, 36_000_000] };

  it('given an attempt whose worker stopped, then the next waits as that attempt’s failure would have (without jitter)', () => {
    expect([1, 2, 3].map((attempt) => waitAfterStallMs(attempt, policy))).toEqual([5_000, 300_000, 36_000_000]);
  });

  it('given the schedule’s last attempt stalled, then one more waits the schedule’s last wait, rather than being dropped unsent', () => {
    expect(waitAfterStallMs(4, policy)).toBe(36_000_000);
    expect(waitAfterStallMs(9, policy)).toBe(36_000_000);
  });
});
