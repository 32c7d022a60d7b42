import type { Row } from './report';

/** A path that threw: the key of its error row, its name, and the error. */
export interface PathFailure {
  key: string;
  path: string;
  error: string;
}

/** What the bench prints or records of something thrown: its message, or with `stack` its stack (an Error's; anything else as text). */
export function errorText(thrown: unknown, { stack = false }: { stack?: boolean } = {}): string {
  if (!(thrown instanceof Error)) return String(thrown);
  return (stack ? thrown.stack : undefined) ?? thrown.message;
}

/**
 * The rows of a run, and the paths that failed. Each path runs through run(): it adds its rows as it measures
 * them, and a throw becomes an error row after those (its key, its name, the error), so the rows measured
 * before it and the paths after it are kept, and the report is written with all of them. A run with any
 * failure ends with a non-zero exit code (run-bench.ts).
 */
export class PathRunner {
  readonly rows: Row[] = [];
  readonly failures: PathFailure[] = [];
  private stoppedBy?: Error;

  constructor(private readonly log: (text: string) => void = () => undefined) {}

  add(...rows: Row[]): void {
    if (this.stoppedBy) return;
    this.rows.push(...rows);
  }

  /**
   * The run was interrupted (interruption.ts): it stops the stack while the path under way goes on unawaited. From
   * here no row is added (one measured now had the stack stopping under it), no path starts, and the one under way
   * throws `reason` at its end or its next run() instead of going on to the next path: its failure is no error row.
   */
  stop(reason: Error): void {
    this.stoppedBy ??= reason;
  }

  /** Runs `measure`. A failing path inside another one (run() nested) is its own error row, and the outer one goes on. */
  async run(key: string, path: string, measure: () => Promise<void>): Promise<void> {
    if (this.stoppedBy) throw this.stoppedBy;
    try {
      await measure();
    } catch (thrown) {
      if (this.stoppedBy) throw this.stoppedBy;
      const error = errorText(thrown);
      this.log(`${path} failed: ${errorText(thrown, { stack: true })}`);
      this.failures.push({ key, path, error });
      this.rows.push(errorRow(key, path, error));
    }
  }
}

/** The row of a path that failed: no figures, the error. */
export function errorRow(key: string, path: string, error: string): Row {
  return { key, path, throughput: 'failed', p50_ms: null, p99_ms: null, baseline: '-', ratio: '-', error };
}
