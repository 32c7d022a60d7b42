import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, REDIS, redisUnavailable, secondsToWait } from '@pp/platform';
import type Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { DashboardConfig } from '../dashboard.config';

export const TOO_MANY_REQUESTS = 'Too many requests; try again in a moment';

const unavailable = redisUnavailable('request budget');

/**
 * A signed-in user's requests per second, counted in Redis so every
 * dashboard replica shares it (docs/ARCHITECTURE.md "Dashboard"). Without it one
 * viewer's session could run the heaviest reads in a loop (a payment's
 * detail is dozens of bus requests) and load the ledger's and webhooks'
 * pools for every merchant. Counted per user, not per session, so signing
 * in again gives no new budget. A Redis that fails or does not answer: 503
 * (redisUnavailable), as the session store answers then.
 */
@Injectable()
export class UserRequestBudget {
  private readonly perUser: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: Redis, @Inject(CONFIG) config: DashboardConfig) {
    const keyPrefix = [config.PP_NAMESPACE, 'dashboard', 'user-requests'].filter(Boolean).join(':');
    this.perUser = new RateLimiterRedis({ storeClient: redis, keyPrefix, points: config.DASHBOARD_REQUESTS_PER_USER_PER_SECOND, duration: 1 });
  }

  /** Counts one request; the seconds to wait when the user's budget is spent, else undefined. */
  spend(userId: string): Promise<number | undefined> {
    return secondsToWait(this.perUser.consume(userId)).catch(unavailable);
  }
}
