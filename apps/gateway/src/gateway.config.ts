import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { BaseConfig, DiffersFrom, IsStrongSecret, WithDatabase, WithHttpTimeouts, WithRedis, WithTrustedProxies, toInt } from '@pp/platform/config';

/** What an Authorization header can carry (access.hook.ts reads at most 512 characters, no space): a token past it could never sign in. */
const BEARER_TOKEN = /^\S{1,512}$/;
const BEARER_TOKEN_RULE = 'must be at most 512 characters without spaces (an Authorization: Bearer header carries no more)';

/** Default of API_KEY_CACHE_TTL_MS. */
export const DEFAULT_API_KEY_CACHE_TTL_MS = 5_000;

export class GatewayConfig extends WithHttpTimeouts(WithTrustedProxies(WithRedis(WithDatabase(BaseConfig)))) {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  GATEWAY_PORT = 3000;

  /** Bearer token of the platform operator for /v1/admin routes (PRODUCT-RULES §D4); 32+ random characters, no placeholder. */
  @IsStrongSecret(32)
  @Matches(BEARER_TOKEN, { message: BEARER_TOKEN_RULE })
  ADMIN_TOKEN!: string;

  /** Bearer token of the mail relay for /v1/internal/ingest-email (PRODUCT-RULES §D4); 32+ random characters, no placeholder. */
  @IsStrongSecret(32)
  @Matches(BEARER_TOKEN, { message: BEARER_TOKEN_RULE })
  @DiffersFrom('ADMIN_TOKEN', 'SERVER_SECRET')
  INGEST_TOKEN!: string;

  /**
   * The gateway's own secret, never sent anywhere: sub-keys derived from it
   * (HKDF, one label per purpose) name Redis entries built from credentials
   * and encrypt cached responses (docs/ARCHITECTURE.md, Idempotency). Rotating
   * it makes earlier cached responses unreplayable and restarts rate-limit counts.
   */
  @IsStrongSecret(32)
  @DiffersFrom('ADMIN_TOKEN')
  SERVER_SECRET!: string;

  /**
   * Longest a gateway trusts an API key it looked up without reading its row
   * again (0: every request reads it). Revocations through the gateway or the
   * CLI reach every gateway at once by NOTIFY; this bounds only changes made
   * behind its back (a row revoked by hand in SQL, an expiry moved).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds, from 0 to 600000 (10 minutes)' })
  @Min(0, { message: 'must be a whole number of milliseconds, from 0 to 600000 (10 minutes)' })
  @Max(600_000, { message: 'must be a whole number of milliseconds, from 0 to 600000 (10 minutes)' })
  API_KEY_CACHE_TTL_MS = DEFAULT_API_KEY_CACHE_TTL_MS;

  /** Requests per second per live key unless the key sets its own limit. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of requests per second' })
  @Min(1)
  @Max(100_000)
  RATE_LIMIT_LIVE_PER_SECOND = 100;

  /** Requests per second per test key unless the key sets its own limit. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of requests per second' })
  @Min(1)
  @Max(100_000)
  RATE_LIMIT_TEST_PER_SECOND = 25;

  /**
   * Client-side checkout routes (publishable keys): requests per second per
   * client address (IPv6 per /64), spent by every request, failed or not.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of requests per second' })
  @Min(1)
  @Max(100_000)
  CLIENT_RATE_LIMIT_PER_ADDRESS_PER_SECOND = 20;

  /** Client-side checkout routes: requests per second per checkout session, spent once its client secret is verified. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of requests per second' })
  @Min(1)
  @Max(100_000)
  CLIENT_RATE_LIMIT_PER_SESSION_PER_SECOND = 5;

  /**
   * Failed API-key authentications (unknown, revoked or expired keys) per
   * client address (IPv6 per /64) and minute, counted by each replica; past
   * it, keys this gateway does not hold are refused (429) without a lookup.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of failed authentications per minute' })
  @Min(1)
  @Max(100_000)
  GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE = 60;

  /**
   * Bytes of answers one merchant's mode (or the admin token) may keep in Redis for Idempotency-Key replays, per 24 h
   * from its first kept answer. Past it, answers are not kept: a retry is answered by the service that recorded the
   * key with its change. Without it, one key's POSTs, each echoing 8 KB of metadata, could fill Redis within its rate
   * limit, and every merchant's POSTs would then be refused (Redis is noeviction).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of bytes, from 0 to 1073741824 (1 GiB)' })
  @Min(0, { message: 'must be a whole number of bytes, from 0 to 1073741824 (1 GiB)' })
  @Max(1_073_741_824, { message: 'must be a whole number of bytes, from 0 to 1073741824 (1 GiB)' })
  IDEMPOTENCY_KEPT_BYTES_PER_SCOPE = 16 * 1_048_576;
}
