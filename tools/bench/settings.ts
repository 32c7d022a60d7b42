/**
 * The BENCH_* settings a run used, recorded as the bench reads them, so that a report says how it was measured
 * and `--compare` can warn when two reports were not measured alike (a row's figures move with BENCH_SECONDS,
 * BENCH_CONNECTIONS, BENCH_TRACE ... as much as with the code).
 */
export class BenchSettings {
  private readonly used: Record<string, string> = {};

  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  /** A number, `fallback` when unset (read as the bench always has: Number of the raw text). */
  number(name: string, fallback: number): number {
    const value = Number(this.env[name] ?? fallback);
    this.used[name] = String(value);
    return value;
  }

  /** Text, `fallback` when unset. */
  text(name: string, fallback: string): string {
    const value = this.env[name] ?? fallback;
    this.used[name] = value;
    return value;
  }

  /** On only when set to `true`. */
  flag(name: string): boolean {
    const value = this.env[name] === 'true';
    this.used[name] = String(value);
    return value;
  }

  /** Every setting read so far with the value it took (the default where unset), by name. */
  recorded(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.used).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * Every BENCH_* variable of the environment as set, read or not: a misspelt one (BENCH_SECOND=5) shows here and not
 * among the settings, which explains a run that ignored it.
 */
export function benchEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter((entry): entry is [string, string] => entry[0].startsWith('BENCH_') && entry[1] !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
