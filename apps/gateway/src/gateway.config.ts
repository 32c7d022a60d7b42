import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BaseConfig, WithDatabase, WithRedis, toInt } from '@pp/platform';
import { IsOperatorToken } from './operator-token.policy';

export class GatewayConfig extends WithRedis(WithDatabase(BaseConfig)) {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  GATEWAY_PORT = 3000;

  /** Bearer token of the platform operator for /v1/admin routes (DESIGN.md §4); 32+ random characters, no placeholder. */
  @IsOperatorToken()
  ADMIN_TOKEN!: string;

  /** Bearer token of the mail relay for /v1/internal/ingest-email (DESIGN.md §4); 32+ random characters, no placeholder. */
  @IsOperatorToken()
  INGEST_TOKEN!: string;

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
