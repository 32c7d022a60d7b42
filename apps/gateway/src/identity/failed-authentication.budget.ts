import { Inject, Injectable } from '@nestjs/common';
import { LruMap } from '@pp/kernel';
import { addressBucket, CONFIG, secondsToWait } from '@pp/platform';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { GatewayConfig } from '../gateway.config';
import { ApiError } from '../http/api-error';

export const TOO_MANY_FAILED_ATTEMPTS = 'Too many failed API key attempts; try again later';

/** Keys remembered as found: a few MB at most, more than the active keys of many merchants. */
export const FOUND_KEYS = 10_000;

/**
 * Failed API-key authentications per client address (IPv6 per /64) and
 * minute (GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE). A well-formed key the
 * gateway has not found before costs a Postgres lookup, so once an address
 * has spent its budget such keys from it are refused, 429, without one, until
 * its minute is over. Counted in this replica's memory, like the checkout's
 * payer budgets: n replicas allow n times as many, still a bound, and junk
 * costs no Redis round trip. The store forgets each address when its minute
 * ends (a timer per entry).
 *
 * A key this replica has once found is never charged, whatever its address
 * has spent: the set of found keys is its own, kept across the key cache's
 * clearing (a reconnect of its revocation listener empties it) and its outages, so a
 * merchant behind an address shared with a guesser keeps the keys it uses.
 * Requests from one address with the same unfound key at once share one
 * lookup and one charge; another address's requests never share its refusal.
 */
@Injectable()
export class FailedAuthenticationBudget {
  private readonly perAddress: RateLimiterMemory;
  private readonly found = new LruMap<string, true>(FOUND_KEYS);
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(@Inject(CONFIG) config: GatewayConfig) {
    this.perAddress = new RateLimiterMemory({ points: config.GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE, duration: 60 });
  }

  /** Whether this replica has found the key named `keyId` (a digest of it) before: a merchant's key, not a guess. */
  hasFound(keyId: string): boolean {
    return this.found.get(keyId) === true;
  }

  /** Remembers the key named `keyId` as found without a lookup: one the database says a merchant used lately. */
  rememberFound(keyId: string): void {
    this.found.set(keyId, true);
  }

  /**
   * Runs `authenticate` (a lookup of the key named `keyId`, a digest of it)
   * for a request from `address`. An unfound key's lookup is charged before
   * it runs, so many guesses at once cannot all slip in before the first
   * failure is counted, and the charge is given back when the key
   * authenticates or the lookup itself fails (the database's trouble, not
   * the client's).
   */
  async attempt<Principal>(address: string, keyId: string, authenticate: () => Promise<Principal | undefined>): Promise<Principal | undefined> {
    if (this.found.get(keyId)) return authenticate();
    // Shared per address: a lookup charged to one address (or refused for it) must not answer another's request.
    const shared = `${addressBucket(address)} ${keyId}`;
    const pending = this.inFlight.get(shared);
    if (pending) return pending as Promise<Principal | undefined>;
    // Registered before anything is awaited, so every request with this key from this address that comes meanwhile shares it.
    const lookup = this.charged(address, keyId, authenticate).finally(() => this.inFlight.delete(shared));
    this.inFlight.set(shared, lookup);
    return lookup;
  }

  private async charged<Principal>(address: string, keyId: string, authenticate: () => Promise<Principal | undefined>): Promise<Principal | undefined> {
    const bucket = addressBucket(address);
    const waitSeconds = await secondsToWait(this.perAddress.consume(bucket));
    if (waitSeconds !== undefined) throw new ApiError(429, TOO_MANY_FAILED_ATTEMPTS, { 'Retry-After': String(waitSeconds) });
    const principal = await authenticate().catch(async (error: unknown) => {
      await this.perAddress.reward(bucket);
      throw error;
    });
    if (principal !== undefined) {
      this.found.set(keyId, true);
      await this.perAddress.reward(bucket);
    }
    return principal;
  }
}
