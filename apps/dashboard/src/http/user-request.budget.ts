import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, REDIS } from '@pp/platform';
import type Redis from 'ioredis';
import type { DashboardConfig } from '../dashboard.config';
import { RedisBudget } from './redis-budget';

export const TOO_MANY_REQUESTS = 'Too many requests; try again in a moment';

/**
 * A signed-in user's requests per second, shared by every dashboard replica
 * (docs/ARCHITECTURE.md "Dashboard"). Without it one viewer's session could
 * run the heaviest reads in a loop (a payment's detail is dozens of bus
 * requests) and load the ledger's and webhooks' pools for every merchant.
 * Counted per user, not per session, so signing in again gives no new
 * budget; a failing Redis answers 503, as the session store does then.
 */
@Injectable()
export class UserRequestBudget extends RedisBudget {
  constructor(@Inject(REDIS) redis: Redis, @Inject(CONFIG) config: DashboardConfig) {
    super(redis, config, 'user-requests', config.DASHBOARD_REQUESTS_PER_USER_PER_SECOND, 1);
  }
}
