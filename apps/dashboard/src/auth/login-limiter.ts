import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { signInEmailKey } from '@pp/contracts';
import { addressBucket, CONFIG, REDIS, redisUnavailable, secondsToWait } from '@pp/platform';
import type Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { DashboardConfig } from '../dashboard.config';

/**
 * Sign-in attempts allowed in each window (docs/SECURITY.md "Secrets", docs/ARCHITECTURE.md "Dashboard"): per account
 * from one client address, and per account from all addresses together; per address: DASHBOARD_LOGINS_PER_ADDRESS.
 */
export const LOGIN_LIMITS = { perAccountAndAddress: 10, perAccount: 100, windowSeconds: 15 * 60 } as const;

export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts; try again later';

/** A Redis that fails or does not answer: the attempt is answered 503, never let through uncounted. */
const unavailable = redisUnavailable('sign-in limiter');

/**
 * Slows password guessing without letting anyone lock an account out from
 * one address. Every attempt counts against the client address (IPv6 per /64)
 * and against the pair of the e-mail tried (signInEmailKey, the form the
 * gateway matches accounts by) and that address; only an attempt both let
 * through counts against the account across all addresses too, a higher cap
 * that bounds a guess spread over many addresses. So one address can spend
 * at most the pair's budget of the account-wide one, and refused attempts
 * spend none of it. A successful sign-in clears its pair's count. Counters are
 * named by a hash, so no address or e-mail shows in Redis.
 */
@Injectable()
export class LoginLimiter {
  private readonly perAccountAndAddress: RateLimiterRedis;
  private readonly perAccount: RateLimiterRedis;
  private readonly perAddress: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: Redis, @Inject(CONFIG) config: DashboardConfig) {
    const keyPrefix = [config.PP_NAMESPACE, 'dashboard', 'login'].filter(Boolean).join(':');
    const common = { storeClient: redis, duration: LOGIN_LIMITS.windowSeconds };
    this.perAccountAndAddress = new RateLimiterRedis({ ...common, keyPrefix: `${keyPrefix}:account-address`, points: LOGIN_LIMITS.perAccountAndAddress });
    this.perAccount = new RateLimiterRedis({ ...common, keyPrefix: `${keyPrefix}:account`, points: LOGIN_LIMITS.perAccount });
    this.perAddress = new RateLimiterRedis({ ...common, keyPrefix: `${keyPrefix}:address`, points: config.DASHBOARD_LOGINS_PER_ADDRESS });
  }

  /** Counts one attempt; the seconds to wait when a budget is spent, else undefined. */
  async attempt(email: string, address: string): Promise<number | undefined> {
    const bucket = addressBucket(address);
    const fromHere = await secondsToWait(Promise.all([this.perAddress.consume(counterName(bucket)), this.perAccountAndAddress.consume(pairName(email, bucket))])).catch(unavailable);
    if (fromHere !== undefined) return fromHere;
    return secondsToWait(this.perAccount.consume(counterName(signInEmailKey(email)))).catch(unavailable);
  }

  /** The account's right password from this address: its pair's count starts again (the account-wide one does not). */
  async succeeded(email: string, address: string): Promise<void> {
    await this.perAccountAndAddress.delete(pairName(email, addressBucket(address))).catch(unavailable);
  }
}

const counterName = (value: string): string => createHash('sha256').update(value).digest('base64url');

const pairName = (email: string, bucket: string): string => counterName(JSON.stringify([signInEmailKey(email), bucket]));
