import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { BaseConfig, IsStrongSecret, WithDatabase, WithRedis, toInt } from '@pp/platform';

export class GatewayConfig extends WithRedis(WithDatabase(BaseConfig)) {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  GATEWAY_PORT = 3000;

  /** Bearer token of the platform operator for /v1/admin routes (DESIGN.md §4). */
  @IsString({ message: 'must be a string' })
  @MinLength(16, { message: 'must be at least 16 characters' })
  ADMIN_TOKEN!: string;

  /** Bearer token of the mail relay for /v1/internal/ingest-email (DESIGN.md §4). */
  @IsString({ message: 'must be a string' })
  @MinLength(16, { message: 'must be at least 16 characters' })
  INGEST_TOKEN!: string;

  /**
   * The gateway's own secret, never sent anywhere: sub-keys derived from it
   * (HKDF, one label per purpose) name Redis entries built from credentials
   * and encrypt cached responses (docs/ARCHITECTURE.md, Idempotency). Rotating
   * it makes earlier cached responses unreplayable and restarts rate-limit counts.
   */
  @IsStrongSecret(32)
  SERVER_SECRET!: string;

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
}
