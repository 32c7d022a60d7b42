import { WebhookDeliveryStatus } from '@pp/contracts';
import { decideAfterAttempt, MAX_RETRY_AFTER_MS, type RetryPolicy } from './retry.decider';

const DAY = 24 * 60 * 60 * 1000;
const policy: RetryPolicy = { scheduleMs: [0, 5_000, 300_000, 1_800_000], disableAfterMs: 5 * DAY };
const now = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms);
const fail = (httpStatus: number | null, retryAfterMs: number | null = null) => ({ httpStatus, retryAfterMs });

describe('decideAfterAttempt', () => {
  it('treats every 2xx as success', () => {
    for (const status of [200, 201, 204, 299]) {
      expect(decideAfterAttempt(fail(status), 1, null, policy, now)).toEqual({
        status: WebhookDeliveryStatus.Success,
        nextAttemptAt: null,
        disableEndpoint: null,
      });
    }
  });

  it('schedules attempt n+1 after the n-th wait of the schedule, within the jitter', () => {
    expect(decideAfterAttempt(fail(500), 1, null, policy, now, () => 0.5).nextAttemptAt).toEqual(at(5_000));
    expect(decideAfterAttempt(fail(500), 2, null, policy, now, () => 0).nextAttemptAt).toEqual(at(270_000));
    expect(decideAfterAttempt(fail(null), 3, null, policy, now, () => 1).nextAttemptAt).toEqual(at(1_980_000));
    expect(decideAfterAttempt(fail(302), 1, null, policy, now).status).toBe(WebhookDeliveryStatus.Failed);
  });

  it('is exhausted once every scheduled attempt was made (also after a manual resend)', () => {
    expect(decideAfterAttempt(fail(500), 4, null, policy, now)).toEqual({
      status: WebhookDeliveryStatus.Exhausted,
      nextAttemptAt: null,
      disableEndpoint: null,
    });
    expect(decideAfterAttempt(fail(500), 7, null, policy, now).status).toBe(WebhookDeliveryStatus.Exhausted);
  });

  it('waits at least as long as Retry-After asks, up to a day', () => {
    expect(decideAfterAttempt(fail(429, 60_000), 1, null, policy, now, () => 0.5).nextAttemptAt).toEqual(at(60_000));
    expect(decideAfterAttempt(fail(503, 1_000), 2, null, policy, now, () => 0.5).nextAttemptAt).toEqual(at(300_000));
    expect(decideAfterAttempt(fail(429, 30 * DAY), 1, null, policy, now, () => 0.5).nextAttemptAt).toEqual(at(MAX_RETRY_AFTER_MS));
  });

  it('stops and disables the endpoint on 410 Gone', () => {
    expect(decideAfterAttempt(fail(410), 1, null, policy, now)).toEqual({
      status: WebhookDeliveryStatus.Exhausted,
      nextAttemptAt: null,
      disableEndpoint: 'endpoint answered 410 Gone',
    });
  });

  it('disables an endpoint that has failed continuously for the whole period, not before', () => {
    const almost = new Date(now.getTime() - 5 * DAY + 1);
    expect(decideAfterAttempt(fail(500), 1, almost, policy, now).status).toBe(WebhookDeliveryStatus.Failed);
    const since = new Date(now.getTime() - 5 * DAY);
    expect(decideAfterAttempt(fail(500), 1, since, policy, now)).toEqual({
      status: WebhookDeliveryStatus.Exhausted,
      nextAttemptAt: null,
      disableEndpoint: `every attempt has failed since ${since.toISOString()}`,
      streakSince: since,
    });
  });
});
