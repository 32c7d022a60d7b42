import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, REDIS, redisUnavailable, secondsToWait } from '@pp/platform';
import type Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { DashboardConfig } from '../dashboard.config';

/** Team users a merchant may add per hour, whether or not each addition succeeds. */
export const TEAM_ADDITIONS_PER_HOUR = 20;

export const TOO_MANY_ADDITIONS = 'Too many team users added; try again later';

const unavailable = redisUnavailable('team additions limiter');

/**
 * E-mail addresses are unique across the platform, so adding a user whose
 * e-mail is taken answers 409: an owner could probe which addresses have an
 * account anywhere. Additions, answered 201 or 409 alike, are counted per
 * merchant, which bounds the probing to a few addresses an hour.
 */
@Injectable()
export class TeamAdditionsLimiter {
  private readonly perMerchant: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: Redis, @Inject(CONFIG) config: DashboardConfig) {
    const keyPrefix = [config.PP_NAMESPACE, 'dashboard', 'team-additions'].filter(Boolean).join(':');
    this.perMerchant = new RateLimiterRedis({ storeClient: redis, keyPrefix, points: TEAM_ADDITIONS_PER_HOUR, duration: 3600 });
  }

  /** Counts one addition; the seconds to wait when the merchant's budget is spent, else undefined. */
  attempt(merchantId: string): Promise<number | undefined> {
    return secondsToWait(this.perMerchant.consume(merchantId)).catch(unavailable);
  }
}
