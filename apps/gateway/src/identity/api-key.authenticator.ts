import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, JsonLogger } from '@pp/platform';
import { DataSource } from 'typeorm';
import type { GatewayConfig } from '../gateway.config';
import { hashApiKey, type KeyKind, parseApiKey, sameHash } from './api-key';
import { keyLookupFailed } from './api-key-lookup-failure';
import { ApiKeyUsage } from './api-key-usage';
import { ApiKeyCache } from './api-key.cache';
import { ApiKeyRepository, type StoredApiKey } from './api-key.repository';
import { FailedAuthenticationBudget, FOUND_KEYS } from './failed-authentication.budget';
import type { KeyPrincipal } from './principal';
import { UnfoundKeyLookups } from './unfound-key-lookups';

/** How far back a key's last use makes it known to a replica from its start (rememberKeysInUse). */
export const KEYS_IN_USE_WITHIN_MS = 7 * 24 * 3_600_000;

/** Resolves a presented API key to the merchant, mode and scopes it grants, or to nothing. */
@Injectable()
export class ApiKeyAuthenticator implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly keys: ApiKeyRepository;
  private readonly cache: ApiKeyCache<StoredApiKey>;

  constructor(
    dataSource: DataSource,
    @Inject(CONFIG) config: GatewayConfig,
    private readonly logger: JsonLogger,
    private readonly usage: ApiKeyUsage,
    private readonly failures: FailedAuthenticationBudget,
    private readonly unfoundLookups: UnfoundKeyLookups,
  ) {
    this.keys = new ApiKeyRepository(dataSource);
    this.cache = new ApiKeyCache(config.DATABASE_URL, config.API_KEY_CACHE_TTL_MS, (error) =>
      logger.warn('API key revocation listener lost; keys are looked up on every request until it is back', { error: error.message }),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.cache.listen(), this.rememberKeysInUse()]);
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.close();
  }

  /**
   * `clientAddress` (request.ip) is charged for the lookup of a key this
   * gateway has not found before (FailedAuthenticationBudget), and such
   * lookups wait for one of a few slots (UnfoundKeyLookups); the event
   * stream, asking again about the key it was opened with, passes none.
   */
  async authenticate(presented: string, clientAddress?: string, now = new Date()): Promise<KeyPrincipal | undefined> {
    const kind = parseApiKey(presented);
    if (!kind) return undefined; // malformed: no database round trip
    const hash = hashApiKey(presented);
    const resolve = () => this.resolve(kind, hash, now);
    if (clientAddress === undefined) return resolve();
    const id = cacheId(hash);
    // A key found before never waits behind guesses; a refused lookup gives its address's charge back (the gateway's limit, not the client's failure).
    const lookup = this.failures.hasFound(id) ? resolve : () => this.unfoundLookups.run(resolve);
    return this.failures.attempt(clientAddress, id, lookup);
  }

  /**
   * A replica just started has found no key yet, so under a flood of guesses its merchants' first requests would
   * wait in line with them (UnfoundKeyLookups) and could be refused. The keys used in the last week are known from
   * the start instead. Only their digests are kept, as for keys found by a request; should this read fail (the
   * database not answering yet), each key becomes known when a request finds it.
   */
  private async rememberKeysInUse(): Promise<void> {
    try {
      // Least recently used first, so that the found keys' memory (least recently used out first) keeps the busiest longest.
      for (const hash of (await this.keys.hashesInUse(KEYS_IN_USE_WITHIN_MS, FOUND_KEYS)).reverse()) this.failures.rememberFound(cacheId(hash));
    } catch (error) {
      this.logger.warn('could not read the API keys in use; each is known once a request finds it', { error: (error as Error).message });
    }
  }

  private async resolve(kind: KeyKind, hash: Buffer, now: Date): Promise<KeyPrincipal | undefined> {
    const key = await this.find(hash, now.getTime());
    if (!key || !sameHash(key.key_hash, hash)) return undefined;
    if (key.revoked_at || (key.expires_at && key.expires_at.getTime() <= now.getTime())) return undefined;
    if (key.type !== kind.type || key.livemode !== kind.livemode) return undefined;
    this.usage.touch(key.id, now.getTime());
    return {
      kind: 'api_key',
      key_id: key.id,
      merchant_id: key.merchant_id,
      type: key.type,
      livemode: key.livemode,
      scopes: key.scopes,
      rate_limit_per_second: key.rate_limit_per_second,
    };
  }

  /**
   * The key row, from the cache or one index lookup by hash (only keys that
   * exist are cached). A database that cannot answer is a 503 to retry.
   */
  private async find(hash: Buffer, now: number): Promise<StoredApiKey | undefined> {
    const id = cacheId(hash);
    const cached = this.cache.get(id, now);
    if (cached) return cached;
    const ticket = this.cache.ticket();
    const key = await this.keys.findByHash(hash).catch(keyLookupFailed);
    if (key) this.cache.set(id, key, ticket, now);
    return key;
  }
}

const cacheId = (hash: Buffer): string => hash.toString('base64');
