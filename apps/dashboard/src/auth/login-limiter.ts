import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, REDIS, redisUnavailable, secondsToWait } from '@pp/platform';
import type Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { DashboardConfig } from '../dashboard.config';

/** Sign-in attempts allowed per account in each window (docs/ARCHITECTURE.md "Dashboard"); per address: DASHBOARD_LOGINS_PER_ADDRESS. */
export const LOGIN_LIMITS = { perAccount: 10, windowSeconds: 15 * 60 } as const;

export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts; try again later';

/** A Redis that fails or does not answer: the attempt is answered 503, never let through uncounted. */
const unavailable = redisUnavailable('sign-in limiter');

/**
 * Slows password guessing: every attempt counts against the e-mail tried and
 * against the client address; a successful sign-in clears the account's count.
 * Counters are named by a hash, so no address or e-mail shows in Redis.
 */
@Injectable()
export class LoginLimiter {
  private readonly perAccount: RateLimiterRedis;
  private readonly perAddress: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: Redis, @Inject(CONFIG) config: DashboardConfig) {
    const keyPrefix = [config.PP_NAMESPACE, 'dashboard', 'login'].filter(Boolean).join(':');
    const common = { storeClient: redis, duration: LOGIN_LIMITS.windowSeconds };
    this.perAccount = new RateLimiterRedis({ ...common, keyPrefix: `${keyPrefix}:account`, points: LOGIN_LIMITS.perAccount });
    this.perAddress = new RateLimiterRedis({ ...common, keyPrefix: `${keyPrefix}:address`, points: config.DASHBOARD_LOGINS_PER_ADDRESS });
  }

  /** Counts one attempt; the seconds to wait when either budget is spent, else undefined. */
  attempt(email: string, address: string): Promise<number | undefined> {
    return secondsToWait(Promise.all([this.perAccount.consume(counterName(email.toLowerCase())), this.perAddress.consume(counterName(address))])).catch(unavailable);
  }

  async succeeded(email: string): Promise<void> {
    await this.perAccount.delete(counterName(email.toLowerCase())).catch(unavailable);
  }
}

const counterName = (value: string): string => createHash('sha256').update(value).digest('base64url');
