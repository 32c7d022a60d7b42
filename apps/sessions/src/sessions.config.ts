import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BaseConfig, toInt, WithCheckoutUrls, WithMetricsPort, WithRedis } from '@pp/platform';

export class SessionsConfig extends WithMetricsPort(WithCheckoutUrls(WithRedis(BaseConfig))) {
  /** Lifetime of a checkout session (PRODUCT-RULES §8: 30 minutes). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of seconds' })
  @Min(1)
  @Max(7 * 24 * 3600)
  SESSION_TTL_SECONDS = 1800;

  /** How often the sweeper expires overdue sessions whose delayed job was lost. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds' })
  @Min(100)
  @Max(3_600_000)
  SESSION_SWEEP_INTERVAL_MS = 30_000;
}
