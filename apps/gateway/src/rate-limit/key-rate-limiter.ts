import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, deriveKey, JsonLogger, keyedDigest, REDIS } from '@pp/platform';
import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { GatewayConfig } from '../gateway.config';
import { ApiError } from '../http/api-error';
import type { KeyPrincipal } from '../identity/principal';
import { redisKey } from '../redis-key';

export interface RateLimitOutcome {
  limit: number;
  remaining: number;
}

/**
 * Requests per second per API key, counted in Redis so every gateway replica
 * shares one budget. A key's own limit wins over its mode's default.
 */
@Injectable()
export class KeyRateLimiter {
  /** One limiter per distinct limit (rate-limiter-flexible fixes the points per instance). */
  private readonly limiters = new Map<number, RateLimiterRedis>();
  /** Counters are named by an HMAC of what they count (a key id today; client addresses or secrets must not show in Redis either). */
  private readonly nameKey: KeyObject;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    private readonly logger: JsonLogger,
  ) {
    this.nameKey = deriveKey(config.SERVER_SECRET, 'gateway/rate-limit/name');
  }

  limitFor(key: KeyPrincipal): number {
    return key.rate_limit_per_second ?? (key.livemode ? this.config.RATE_LIMIT_LIVE_PER_SECOND : this.config.RATE_LIMIT_TEST_PER_SECOND);
  }

  /** Counts one request; throws 429 with Retry-After when the key's budget for this second is spent. */
  async consume(key: KeyPrincipal): Promise<RateLimitOutcome> {
    const limit = this.limitFor(key);
    try {
      const res = await this.limiter(limit).consume(keyedDigest(this.nameKey, 'key', key.key_id));
      return { limit, remaining: res.remainingPoints };
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        throw new ApiError(429, 'Rate limit exceeded', {
          'Retry-After': String(Math.max(1, Math.ceil(error.msBeforeNext / 1000))),
          'X-RateLimit-Limit': String(limit),
          'X-RateLimit-Remaining': '0',
        });
      }
      // Redis trouble must not take the API down with it: serve the request unthrottled.
      this.logger.warn('rate limiter unavailable, request not throttled', { error: error instanceof Error ? error.message : String(error) });
      return { limit, remaining: limit };
    }
  }

  private limiter(points: number): RateLimiterRedis {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: redisKey(this.config.PP_NAMESPACE, 'gateway', 'ratelimit', String(points)),
        points,
        duration: 1,
      });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}
