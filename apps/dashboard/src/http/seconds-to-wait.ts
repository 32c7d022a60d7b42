import { RateLimiterRes } from 'rate-limiter-flexible';

/**
 * What a rate-limiter spend comes to: undefined when it was within the
 * budget, else the whole seconds to wait (at least 1). Any other failure
 * (Redis) goes to `unavailable`, which answers 503: an attempt is never let
 * through uncounted.
 */
export async function secondsToWait(spend: Promise<unknown>, unavailable: (error: unknown) => never): Promise<number | undefined> {
  try {
    await spend;
    return undefined;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) return unavailable(error);
    return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
  }
}
