import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, REDIS } from '@pp/platform';
import type Redis from 'ioredis';
import type { DashboardConfig } from '../dashboard.config';
import { RedisBudget } from '../http/redis-budget';

/** Team users a merchant may add per hour, whether or not each addition succeeds. */
export const TEAM_ADDITIONS_PER_HOUR = 20;

export const TOO_MANY_ADDITIONS = 'Too many team users added; try again later';

/**
 * E-mail addresses are unique across the platform, so adding a user whose
 * e-mail is taken answers 409: an owner could probe which addresses have an
 * account anywhere. Additions, answered 201 or 409 alike, are counted per
 * merchant, which bounds the probing to a few addresses an hour.
 */
@Injectable()
export class TeamAdditionsLimiter extends RedisBudget {
  constructor(@Inject(REDIS) redis: Redis, @Inject(CONFIG) config: DashboardConfig) {
    super(redis, config, 'team-additions', TEAM_ADDITIONS_PER_HOUR, 3600);
  }
}
