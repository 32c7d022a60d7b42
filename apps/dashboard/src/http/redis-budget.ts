import { redisUnavailable, secondsToWait } from '@pp/platform';
import type Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { DashboardConfig } from '../dashboard.config';

/**
 * A budget of `points` per subject (a merchant, a user) and window, counted
 * in Redis so every dashboard replica shares it. Each attempt counts,
 * whether or not what it asks for then succeeds. A Redis that fails or does
 * not answer: 503 (redisUnavailable), never an attempt let through uncounted.
 */
export class RedisBudget {
  private readonly perSubject: RateLimiterRedis;
  private readonly unavailable: (error: unknown) => never;

  /** `name` names the counters in Redis (under PP_NAMESPACE) and the budget in logs. */
  constructor(redis: Redis, config: DashboardConfig, name: string, points: number, windowSeconds: number) {
    const keyPrefix = [config.PP_NAMESPACE, 'dashboard', name].filter(Boolean).join(':');
    this.perSubject = new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: windowSeconds });
    this.unavailable = redisUnavailable(`${name} budget`);
  }

  /** Counts one attempt; the seconds to wait when the subject's budget is spent, else undefined. */
  spend(subject: string): Promise<number | undefined> {
    return secondsToWait(this.perSubject.consume(subject)).catch(this.unavailable);
  }
}
