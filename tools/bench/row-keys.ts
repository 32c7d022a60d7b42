/**
 * A row's stable key, for matching rows across reports (`--compare`). Some rows' names carry their settings
 * ("webhook fan-out (4 endpoints)", "... (median of 5)"), so matching by name loses a row whenever a setting
 * or a wording changes; each row now carries a key of its own (Row.key).
 */

/** Rows whose name has been the same in every report so far, by key. */
const NAMED: ReadonlyArray<[key: string, name: string]> = [
  ['idle-rss', 'idle RSS, largest service'],
  ['idle-rss', 'idle memory (max RSS of one service)'],
  ['stack-ready', 'stack ready after start'],
  ['baseline', 'baseline: one process, HTTP + one pg insert'],
  ['floor-plain', 'create-path floor: its 3 processes and 2 bus hops, no work'],
  ['floor-nest', "create-path floor on NestJS (the services' framework), no work"],
  ['create-max', 'create session (gateway → sessions → ledger → pg), max load'],
  ['create-half', 'create session at half of max load'],
  ['baseline-again', 'baseline again, after the create paths (no target)'],
  ['webhook-latency', 'simulate-payment → signed webhook received'],
  ['ingest-http', 'live e-mail ingest (authenticate, parse, match, confirm)'],
  ['ingest-jetstream', 'live e-mail ingest from JetStream (the mail pipeline)'],
];

/** Rows whose name carries a setting. */
const PATTERNS: ReadonlyArray<[pattern: RegExp, key: (match: RegExpExecArray) => string]> = [
  [/^webhook fan-out \(\d+ endpoints\)$/, () => 'webhook-fanout'],
  [/^create session interleaved with the baseline \(median of \d+\)$/, () => 'create-interleaved'],
  [/^create session at (\d+) req\/s \(BENCH_SWEEP\)$/, (match) => `create-sweep-${match[1]}`],
];

/** The key of a BENCH_SWEEP row: one per rate, as each rate is a row of its own. */
export const sweepRowKey = (rate: number): string => `create-sweep-${rate}`;

/**
 * `row.key` when it has one; for a report written before rows had keys, the key its name stands for, or the
 * name itself when it is none of the known ones (two such reports still match by name).
 */
export function rowKey(row: { key?: string; path: string }): string {
  if (row.key) return row.key;
  const named = NAMED.find(([, name]) => name === row.path);
  if (named) return named[0];
  for (const [pattern, key] of PATTERNS) {
    const match = pattern.exec(row.path);
    if (match) return key(match);
  }
  return row.path;
}
