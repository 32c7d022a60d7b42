import type { JsonLogger } from './json-logger';

/** How often a failure that goes on is warned about again. */
export const FAILURE_REMINDER_MS = 60_000;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The log of a task that runs again and again (a sweep, a consumer that
 * binds to its stream): its first failure is warned about at once; while
 * it goes on failing, one reminder a minute with how many times and for how
 * long, instead of a line at every run (a sweep runs every second); and the
 * first success after a failure is logged at info. So an outage is seen
 * when it starts, stays seen while it lasts, and its end is seen too,
 * without burying the rest of the log.
 */
export interface FailureStreakOptions {
  /** The first failure's message; `<task> failed` unless given. */
  failedMessage?: string;
  /**
   * How long after the streak's making failures are its neighbours still
   * starting (a sweep that asks another service, started by the same
   * launcher): a streak that ends within it is not logged, one that outlasts
   * it is warned about then, with its count and duration.
   */
  startingForMs?: number;
  now?: () => number;
}

export class FailureStreak {
  private streak?: { since: number; failures: number; remindedAt: number; warned: boolean };
  private readonly failedMessage: string;
  private readonly now: () => number;
  private readonly startingUntil: number;

  constructor(
    private readonly logger: Pick<JsonLogger, 'warn' | 'info'>,
    /** What fails, as the log says it: "delivery sweep". */
    private readonly task: string,
    { failedMessage = `${task} failed`, startingForMs = 0, now = Date.now }: FailureStreakOptions = {},
  ) {
    this.failedMessage = failedMessage;
    this.now = now;
    this.startingUntil = now() + startingForMs;
  }

  failed(error: unknown, fields: Record<string, unknown> = {}): void {
    const now = this.now();
    const starting = now < this.startingUntil;
    if (!this.streak) {
      this.streak = { since: now, failures: 1, remindedAt: now, warned: !starting };
      if (!starting) this.logger.warn(this.failedMessage, { ...fields, error: messageOf(error) });
      return;
    }
    this.streak.failures += 1;
    if (!this.streak.warned && !starting) {
      this.streak.warned = true;
      this.streak.remindedAt = now;
      this.logger.warn(this.failedMessage, { ...fields, error: messageOf(error), failures: this.streak.failures, failing_for_ms: now - this.streak.since });
      return;
    }
    if (!this.streak.warned || now - this.streak.remindedAt < FAILURE_REMINDER_MS) return;
    this.streak.remindedAt = now;
    this.logger.warn(`${this.task} still failing`, { ...fields, error: messageOf(error), failures: this.streak.failures, failing_for_ms: now - this.streak.since });
  }

  /**
   * Runs one round of the task and records how it went; a failure answers
   * `otherwise` instead of throwing (the next round tries again).
   */
  async guard<T, F>(task: () => Promise<T>, otherwise: F, fields: Record<string, unknown> = {}): Promise<T | F> {
    try {
      const result = await task();
      this.succeeded();
      return result;
    } catch (error) {
      this.failed(error, fields);
      return otherwise;
    }
  }

  succeeded(fields: Record<string, unknown> = {}): void {
    if (!this.streak) return;
    const { since, failures, warned } = this.streak;
    this.streak = undefined;
    if (!warned) return;
    this.logger.info(`${this.task} works again`, { ...fields, failures, failed_for_ms: this.now() - since });
  }
}
