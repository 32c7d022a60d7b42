import { redisUnavailable, secondsToWait } from '@pp/platform';
import type Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { DashboardConfig } from '../dashboard.config';

/**
 * A budget of one kind of change per merchant and hour, counted in Redis so
 * every dashboard replica shares it, for changes a merchant's users could
 * otherwise repeat without end. Each attempt counts, whether or not the
 * change then succeeds. A Redis that fails or does not answer: 503
 * (redisUnavailable), never a change let through uncounted.
 */
export class PerMerchantHourlyLimiter {
  private readonly perMerchant: RateLimiterRedis;
  private readonly unavailable: (error: unknown) => never;

  /** `name` names the counters in Redis (under PP_NAMESPACE) and the limiter in logs. */
  constructor(redis: Redis, config: DashboardConfig, name: string, perHour: number) {
    const keyPrefix = [config.PP_NAMESPACE, 'dashboard', name].filter(Boolean).join(':');
    this.perMerchant = new RateLimiterRedis({ storeClient: redis, keyPrefix, points: perHour, duration: 3600 });
    this.unavailable = redisUnavailable(`${name} limiter`);
  }

  /** Counts one attempt; the seconds to wait when the merchant's budget is spent, else undefined. */
  attempt(merchantId: string): Promise<number | undefined> {
    return secondsToWait(this.perMerchant.consume(merchantId)).catch(this.unavailable);
  }
}
