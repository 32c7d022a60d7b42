import type { DependencyCheck } from '../health/health.service';
import { FailureStreak } from '../logging/failure-streak';
import type { JsonLogger } from '../logging/json-logger';

/**
 * Rounds that must fail in a row, about a second apart, before a reader that
 * has read counts as down: a lone failure (a JetStream leader election, one
 * NATS node restarting) is over by the next round, and readiness should not
 * flap for it.
 */
export const DOWN_AFTER_FAILURES = 3;

/**
 * Whether a durable reader reads, for the log and for the service's health
 * answer. The log is a FailureStreak's (a warning at the first failure, then
 * one a minute). The check is down until the reader first reads, and again
 * once a streak reaches DOWN_AFTER_FAILURES: a replica that cannot bind its
 * durable consumer does none of that consumer's work (no webhook goes out,
 * no mailed notice is read), so it must not answer up (the consumer-lag
 * series is absent then too, and the backlog alert silent). Its reasons name
 * no stream, host or driver message.
 */
export class ReaderHealth {
  private hasRead = false;
  private failures = 0;
  private readonly log: FailureStreak;
  private settle!: () => void;
  /** Resolves at the first round's outcome, read or failed. */
  readonly firstRound = new Promise<void>((resolve) => (this.settle = resolve));

  constructor(
    logger: Pick<JsonLogger, 'warn' | 'info'>,
    /** What is read, as the log and the check say it: "merchant events". */
    private readonly what: string,
  ) {
    this.log = new FailureStreak(logger, `${what} reader`, { failedMessage: `${what} not readable yet; retrying` });
  }

  reading(fields: Record<string, unknown>): void {
    this.hasRead = true;
    this.failures = 0;
    this.log.succeeded(fields);
    this.settle();
  }

  failed(error: unknown, fields: Record<string, unknown>): void {
    this.failures += 1;
    this.log.failed(error, fields);
    this.settle();
  }

  readonly check: DependencyCheck = async () => {
    if (!this.hasRead) throw new Error(`not reading ${this.what} yet: the durable consumer is not bound`);
    if (this.failures >= DOWN_AFTER_FAILURES) throw new Error(`not reading ${this.what}: ${this.failures} attempts in a row failed`);
  };
}
