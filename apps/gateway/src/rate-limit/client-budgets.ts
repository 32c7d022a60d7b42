import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { addressBucket, CONFIG, deriveKey, JsonLogger, keyedDigest, REDIS, secondsToWait } from '@pp/platform';
import type Redis from 'ioredis';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RouteAccess } from '../access/route-access';
import type { GatewayConfig } from '../gateway.config';
import { ApiError } from '../http/api-error';
import type { KeyPrincipal } from '../identity/principal';
import { redisKey } from '../redis-key';
import { KeyRateLimiter, type RateLimitOutcome } from './key-rate-limiter';

/**
 * Client-side checkout routes are the ones publishable keys may call: the
 * key is public, so its budget must not be spendable by strangers.
 */
export const isClientRoute = (access: RouteAccess | undefined): boolean =>
  access?.credential === 'api_key' && access.keyTypes.includes('publishable');

/** How long a session's open counts against its key's budget: its repeats within it spend only the session's. */
export const OPEN_COUNTED_FOR_MS = 60_000;

/**
 * Budgets of the client-side checkout routes (docs/ARCHITECTURE.md, rate
 * limits). Every request spends its client address's budget first, before
 * the key is even looked up, so junk (wrong keys, unknown client secrets)
 * from one address is throttled there. Only a request whose client secret
 * opened a session spends that session's budget and then the key's, so junk
 * never uses up the merchant's embedded checkout. The key's is spent once per
 * session per OPEN_COUNTED_FOR_MS: whoever holds a few client secrets (each
 * embedded page shows its own) cannot spend it all by opening the same
 * sessions again and again, which would lock the merchant's other payers out.
 */
@Injectable()
export class ClientBudgets {
  private readonly perAddress: RateLimiterRedis;
  private readonly perSession: RateLimiterRedis;
  /** Address budgets are named by an HMAC of the address: a payer's IP must not show in Redis, in a dump or a command's span. */
  private readonly addressNameKey: KeyObject;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(CONFIG) config: GatewayConfig,
    private readonly keys: KeyRateLimiter,
    private readonly logger: JsonLogger,
  ) {
    const limiter = (name: string, points: number) =>
      new RateLimiterRedis({ storeClient: redis, keyPrefix: redisKey(config.PP_NAMESPACE, 'gateway', 'client-budget', name), points, duration: 1 });
    this.perAddress = limiter('address', config.CLIENT_RATE_LIMIT_PER_ADDRESS_PER_SECOND);
    this.perSession = limiter('session', config.CLIENT_RATE_LIMIT_PER_SESSION_PER_SECOND);
    this.addressNameKey = deriveKey(config.SERVER_SECRET, 'gateway/client-budget/address');
  }

  /** onRequest hook, before the access hook: spends the client address's budget on client routes. */
  readonly spendAddress = async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    if (!isClientRoute(request.routeOptions.config.access)) return;
    await this.spend(this.perAddress, keyedDigest(this.addressNameKey, addressBucket(request.ip)));
  };

  /** After a client secret opened `sessionId`: spends the session's budget, then the key's unless the session spent it lately (none to answer then). */
  async spendOpenedSession(key: KeyPrincipal, sessionId: string): Promise<RateLimitOutcome | undefined> {
    await this.spend(this.perSession, sessionId);
    return this.keys.consumeFirstOf(key, `session:${sessionId}`, OPEN_COUNTED_FOR_MS);
  }

  private async spend(limiter: RateLimiterRedis, subject: string): Promise<void> {
    const waitSeconds = await secondsToWait(limiter.consume(subject)).catch((error: unknown) => {
      // Redis trouble must not take checkout down with it: serve the request unthrottled.
      this.logger.warn('client budget unavailable, request not throttled', { error: error instanceof Error ? error.message : String(error) });
      return undefined;
    });
    if (waitSeconds !== undefined) throw new ApiError(429, 'Rate limit exceeded', { 'Retry-After': String(waitSeconds) });
  }
}
