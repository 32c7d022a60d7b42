import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { BaseConfig, toInt, WithDatabase, WithMetricsPort } from '@pp/platform/config';

const toFlag = ({ value }: { value: unknown }) => (value === '1' || value === 'true' ? true : value === '0' || value === 'false' ? false : value);

export class LedgerConfig extends WithMetricsPort(WithDatabase(BaseConfig)) {
  /** Most appends committed together in one transaction (group commit). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of appends' })
  @Min(1)
  @Max(1000)
  LEDGER_APPEND_BATCH_MAX = 200;

  /** How often the JetStream publisher looks for new events when no notification wakes it. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds' })
  @Min(20)
  @Max(60_000)
  LEDGER_PUBLISH_POLL_MS = 1000;

  /**
   * TEST ONLY. When 1, the ledger kills itself with SIGKILL right after
   * committing an append and before answering it, so tests can prove that a
   * retry with the same idempotency key creates nothing new. Never set it in
   * a deployment.
   */
  @IsOptional()
  @Transform(toFlag)
  @IsBoolean({ message: 'must be 0 or 1 (test only)' })
  LEDGER_TEST_CRASH_AFTER_COMMIT = false;
}
