import { RateLimiterRes } from 'rate-limiter-flexible';

/**
 * What a rate-limiter spend comes to: undefined when it was within the
 * budget, else the whole seconds to wait (at least 1), for Retry-After. Any
 * other failure (the store: Redis) is thrown for the caller to decide on.
 */
export async function secondsToWait(spend: Promise<unknown>): Promise<number | undefined> {
  try {
    await spend;
    return undefined;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
  }
}
