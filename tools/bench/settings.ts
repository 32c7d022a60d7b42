/**
 * The BENCH_* settings a run used, recorded as the bench reads them, so that a report says how it was measured
 * and `--compare` can warn when two reports were not measured alike (a row's figures move with BENCH_SECONDS,
 * BENCH_CONNECTIONS, BENCH_TRACE ... as much as with the code).
 */
export class BenchSettings {
  private readonly used: Record<string, string> = {};

  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  /**
   * A whole number of at least `min`, `fallback` when unset. Anything else set throws, naming the variable and
   * what it allows: read as Number of the raw text, an empty value was 0 and `10s` NaN, and the run went on with it.
   */
  number(name: string, fallback: number, { min = 0 }: { min?: number } = {}): number {
    const raw = this.env[name];
    const value = raw === undefined ? fallback : Number(raw.trim());
    if (raw !== undefined && (!/^\d+$/.test(raw.trim()) || value < min)) {
      throw new Error(`${name}=${JSON.stringify(raw)}: give a whole number of ${min} or more (unset: ${fallback})`);
    }
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

/** The paths BENCH_PATHS may name, in the order the bench runs them. */
export const BENCH_PATHS = ['create', 'webhook', 'ingest', 'fanout'] as const;
export type BenchPath = (typeof BENCH_PATHS)[number];

/**
 * BENCH_PATHS (`create,webhook,ingest,fanout` when unset): the paths to run. A name that is none of them, or no name
 * at all, throws before the stack starts: such a run measured nothing of the path and said nothing about it.
 */
export function benchPaths(value: string): Set<BenchPath> {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(BENCH_PATHS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    const what = names.length === 0 ? 'no path named' : `no path is called ${unknown.map((name) => `"${name}"`).join(' or ')}`;
    throw new Error(`BENCH_PATHS=${JSON.stringify(value)}: ${what}; give one or more of ${BENCH_PATHS.join(', ')}, separated by commas (unset: all)`);
  }
  return new Set(names as BenchPath[]);
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
