import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BaseConfig, toInt, WithCheckoutUrls, WithMetricsPort, WithRedis } from '@pp/platform/config';

export class SessionsConfig extends WithMetricsPort(WithCheckoutUrls(WithRedis(BaseConfig))) {
  /** Lifetime of a checkout session (PRODUCT-RULES §8: 30 minutes). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of seconds' })
  @Min(1)
  @Max(7 * 24 * 3600)
  SESSION_TTL_SECONDS = 1800;

  /** How often the scheduled sweep (one replica at a time, through BullMQ) expires overdue sessions: at most this late. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds' })
  @Min(100)
  @Max(3_600_000)
  SESSION_EXPIRY_SWEEP_MS = 1000;

  /** How often each replica sweeps on its own, without Redis, and puts the scheduled sweep back if Redis lost it. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds' })
  @Min(100)
  @Max(3_600_000)
  SESSION_SWEEP_INTERVAL_MS = 30_000;
}
