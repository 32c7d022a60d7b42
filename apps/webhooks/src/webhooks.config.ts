import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { BaseConfig, IsKeyRing, DevelopmentOnly, toBool, toInt, WithDatabase, WithMetricsPort, WithRedis } from '@pp/platform/config';

/** Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (DESIGN §4). */
export const DEFAULT_RETRY_SCHEDULE = '0,5,300,1800,7200,18000,36000,36000';

export class WebhooksConfig extends WithMetricsPort(WithRedis(WithDatabase(BaseConfig))) {
  /**
   * Keys that encrypt endpoint signing secrets at rest, `<key id>:<base64 of
   * 32 bytes>` separated by commas: the first seals, all open, and at boot
   * every secret is re-sealed under the first (docs/ARCHITECTURE.md, Webhook
   * delivery, for rotation).
   */
  @IsKeyRing()
  WEBHOOK_SECRET_KEYS!: string;

  /**
   * Lets endpoints point at loopback, private, link-local and metadata
   * addresses. Only for development and tests, where receivers run locally:
   * the service refuses to start with it unless NODE_ENV is unset, development or test.
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  @DevelopmentOnly(true, 'private URLs are for development and tests only (endpoints could reach loopback, private and metadata addresses)')
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  /**
   * Seconds to wait before each attempt, comma-separated: the first entry
   * delays the first attempt, the number of entries is the number of
   * automatic attempts (PRODUCT-RULES §D4). Fractions are allowed (tests).
   * The default is the one DESIGN §4 fixes: eight attempts over 99,305 s
   * (about 27.6 hours) from the first to the last. DESIGN §3 and
   * PRODUCT-RULES §5 say "about 3 days"; the two disagree, and the fixed
   * interface wins until the issue owner says otherwise (a deployment sets a
   * longer one here, e.g. 0,5,300,1800,7200,18000,36000,43200,43200,43200,43200,43200).
   */
  @IsOptional()
  @Matches(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, { message: 'must be comma-separated seconds, e.g. 0,5,300,1800' })
  WEBHOOK_RETRY_SCHEDULE = DEFAULT_RETRY_SCHEDULE;

  /** Upper bound for one attempt: connecting, sending and receiving the status line. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds' })
  @Min(100)
  @Max(60_000)
  WEBHOOK_ATTEMPT_TIMEOUT_MS = 10_000;

  /**
   * How often the sweeper looks in Postgres for due deliveries that lost their
   * queued job (Redis lost its data) or whose attempt was left unfinished by a
   * process that stopped (its lease has ended): such an attempt is made again
   * at most this long after its lease.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds' })
  @Min(100)
  @Max(600_000)
  WEBHOOK_SWEEP_INTERVAL_MS = 5_000;

  /** Attempts in flight at once per replica (they wait on the network, not the CPU). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number' })
  @Min(1)
  @Max(1000)
  WEBHOOK_DELIVERY_CONCURRENCY = 256;

  /**
   * How long the event consumer waits for half of WEBHOOK_DELIVERY_CONCURRENCY
   * to be free before it records an event anyway and queues the attempts that
   * find no place. Waiting keeps a backlog's first attempts in process, each
   * without a queue round trip; the bound keeps new events recorded, a few
   * batches a second, while slow endpoints hold every place. 0: never wait.
   * Below the consumer's 30 s acknowledgement wait.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds' })
  @Min(0)
  @Max(10_000)
  WEBHOOK_BACKLOG_WAIT_MS = 100;

  /**
   * An endpoint whose attempts have all failed for this long (no success, and
   * no quiet spell longer than RetryPolicy.streakGapMs) is disabled by the
   * next delivery that fails its last attempt (Svix: 5 days).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of seconds' })
  @Min(1)
  WEBHOOK_DISABLE_AFTER_FAILING_SECONDS = 5 * 24 * 60 * 60;
}

/** The retry schedule in milliseconds (validated shape: non-empty list of non-negative numbers). */
export const retryScheduleMs = (config: WebhooksConfig): number[] =>
  config.WEBHOOK_RETRY_SCHEDULE.split(',').map((entry) => Math.round(Number(entry.trim()) * 1000));
