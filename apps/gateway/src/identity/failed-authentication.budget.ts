import { Inject, Injectable } from '@nestjs/common';
import { addressBucket, CONFIG, secondsToWait } from '@pp/platform';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { GatewayConfig } from '../gateway.config';
import { ApiError } from '../http/api-error';

export const TOO_MANY_FAILED_ATTEMPTS = 'Too many failed API key attempts; try again later';

/**
 * Failed API-key authentications per client address (IPv6 per /64) and
 * minute (GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE). A well-formed key the
 * gateway does not hold costs a Postgres lookup, so once an address has spent
 * its budget such keys from it are refused, 429, without one, until its
 * minute is over. Counted in this replica's memory, like the checkout's payer
 * budgets: n replicas allow n times as many, still a bound, and junk costs no
 * Redis round trip. The store forgets each address when its minute ends (a
 * timer per entry), so it holds only the addresses that presented an unknown
 * key within the last minute.
 */
@Injectable()
export class FailedAuthenticationBudget {
  private readonly perAddress: RateLimiterMemory;

  constructor(@Inject(CONFIG) config: GatewayConfig) {
    this.perAddress = new RateLimiterMemory({ points: config.GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE, duration: 60 });
  }

  /**
   * Runs `authenticate` (a key lookup) as an attempt from `address`. The
   * attempt is counted as failed before it runs, so concurrent guesses cannot
   * all slip in before the first failure is counted, and given back when it
   * authenticates or the lookup itself fails (the database's trouble, not the
   * client's).
   */
  async attempt<Principal>(address: string, authenticate: () => Promise<Principal | undefined>): Promise<Principal | undefined> {
    const bucket = addressBucket(address);
    const waitSeconds = await secondsToWait(this.perAddress.consume(bucket));
    if (waitSeconds !== undefined) throw new ApiError(429, TOO_MANY_FAILED_ATTEMPTS, { 'Retry-After': String(waitSeconds) });
    const principal = await authenticate().catch(async (error: unknown) => {
      await this.perAddress.reward(bucket);
      throw error;
    });
    if (principal !== undefined) await this.perAddress.reward(bucket);
    return principal;
  }
}
