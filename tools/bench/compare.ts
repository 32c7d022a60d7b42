import { readFileSync } from 'node:fs';
import { type BenchReport, cpuGroups, groupsMeasured, PER_REQUEST_MEASURES, type Row, table } from './report';
import { rowKey } from './row-keys';

/**
 * `npm run bench -- --compare A.json B.json`: what changed from report A to
 * report B, path by path (rows matched by their key, row-keys.ts, or for older
 * reports by the key their name stands for): throughput, latency and each
 * process's CPU ms per request, with B's change relative to A. It warns first
 * when the two runs were not measured alike.
 */

/** The settings older reports kept at their top level, before `settings` recorded every BENCH_* one. */
const LEGACY_SETTINGS = [
  ['BENCH_SECONDS', 'seconds'],
  ['BENCH_WARMUP_SECONDS', 'warmup_seconds'],
  ['BENCH_CONNECTIONS', 'connections'],
] as const;

/**
 * When the baseline server began keeping its idle Postgres connections (commit 17c6ddb; baseline-server.ts). Before,
 * pg-pool closed a connection idle for 10 s, so the baseline windows after an idle spell (the baseline again, the
 * interleaved row's) began by reconnecting, which the first baseline window never paid. Reports carry no mark of it:
 * a report written before this moment is taken for one of those.
 */
export const BASELINE_KEEPS_CONNECTIONS_SINCE = '2026-12-06T21:20:00Z';

/**
 * How the two runs were not measured alike, one line each: their Node, each BENCH_* setting that took another
 * value, each infrastructure process the CPU reader found in one run and not in the other. With a report that
 * records no settings (older than them), only the few it kept are compared, and a line says so; with a report
 * whose baseline reconnected before its later windows (BASELINE_KEEPS_CONNECTIONS_SINCE), a line says that too.
 */
export function settingsDifferences(a: BenchReport, b: BenchReport): string[] {
  const lines: string[] = [];
  if (a.node !== b.node) lines.push(`Node: ${a.node ?? '?'} → ${b.node ?? '?'}`);
  const older = [a, b].filter((report) => !report.settings).length;
  const settingsOf = (report: BenchReport): Record<string, string> =>
    report.settings && older === 0
      ? report.settings
      : Object.fromEntries(LEGACY_SETTINGS.map(([name, field]) => [name, String(report.settings?.[name] ?? report[field])]));
  const [sa, sb] = [settingsOf(a), settingsOf(b)];
  for (const name of [...new Set([...Object.keys(sa), ...Object.keys(sb)])].sort()) {
    if (sa[name] !== sb[name]) lines.push(`${name}: ${sa[name] ?? 'not recorded'} → ${sb[name] ?? 'not recorded'}`);
  }
  if (older > 0) lines.push(`${older === 2 ? 'neither report records' : `${a.settings ? 'B' : 'A'} does not record`} its BENCH_* settings (older report): only ${LEGACY_SETTINGS.map(([name]) => name).join(', ')} compared`);
  if (older === 1) {
    lines.push(
      `${a.settings ? 'B' : 'A'} predates the corrected bench: its half-load latencies are from each send (the newer report's detail.from_send), its webhook row had no warm-up, its idle RSS is one reading at 3 s, and its windows did not wait for a quiet stack`,
    );
  }
  const reconnected = (report: BenchReport) => Date.parse(report.at) < Date.parse(BASELINE_KEEPS_CONNECTIONS_SINCE);
  if (reconnected(a) !== reconnected(b)) {
    lines.push(
      `${reconnected(a) ? 'A' : 'B'} predates the baseline keeping its Postgres connections (${BASELINE_KEEPS_CONNECTIONS_SINCE}): its "baseline again" and interleaved baseline windows started by reconnecting after an idle spell, so their rates (and the interleaved ratio) are not quite the newer report's`,
    );
  }
  const found = [...new Set([...Object.keys(a.cpu_processes_found ?? {}), ...Object.keys(b.cpu_processes_found ?? {})])].sort();
  for (const name of found) {
    const [fa, fb] = [a.cpu_processes_found?.[name], b.cpu_processes_found?.[name]];
    if (fa !== undefined && fb !== undefined && fa !== fb) lines.push(`CPU of ${name}: ${fa ? 'read' : 'not found'} → ${fb ? 'read' : 'not found'}`);
  }
  return lines;
}

const leadingNumber = (text: string): number | undefined => {
  const match = /^(-?[\d,.]+)/.exec(text);
  return match ? Number(match[1].replace(/,/g, '')) : undefined;
};

const change = (a: number | undefined | null, b: number | undefined | null, digits = 0): string => {
  if (a === undefined || a === null || b === undefined || b === null) return `${a ?? '-'} → ${b ?? '-'}`;
  const pct = a === 0 ? '' : ` (${b >= a ? '+' : ''}${Math.round(((b - a) / a) * 100)}%)`;
  return `${a.toFixed(digits)} → ${b.toFixed(digits)}${pct}`;
};

/** Rows whose latencies are recorded to a tenth of a millisecond (latency-summary.ts, toTenths): their p50 ≤ 10 ms target is judged on the tenths. */
const LATENCY_IN_TENTHS = new Set(['webhook-latency']);

/** A figure of two rows, A → B, each side `failed` where its row is a failed path's error row (path-runner.ts) rather than a missing figure. */
const changeOf = (ra: Row | undefined, rb: Row | undefined, figure: (row: Row | undefined) => number | undefined | null, digits = 0): string => {
  if (ra?.error === undefined && rb?.error === undefined) return change(figure(ra), figure(rb), digits);
  const side = (row: Row | undefined) => (row?.error !== undefined ? 'failed' : (figure(row)?.toFixed(digits) ?? '-'));
  return `${side(ra)} → ${side(rb)}`;
};

export function compareReports(a: BenchReport, b: BenchReport): string {
  const keys = [...new Set([...a.rows.map(rowKey), ...b.rows.map(rowKey)])];
  const rowOf = (report: BenchReport, key: string): Row | undefined => report.rows.find((r) => rowKey(r) === key);
  // B's name (the newer wording, its settings); A's for a row B does not have.
  const nameOf = (key: string): string => (rowOf(b, key) ?? rowOf(a, key))?.path ?? key;
  const run = (r: BenchReport) => `${r.at} (Node ${r.node ?? '?'}, load average ${r.load_average?.join(' ') ?? '?'})`;
  let out = `A: ${run(a)}\nB: ${run(b)}\n`;
  const differences = settingsDifferences(a, b);
  if (differences.length > 0) {
    out += `warning: the two runs were not measured alike; their figures differ by these too:\n${differences.map((line) => `  ${line}`).join('\n')}\n`;
  }
  // Runs on machines (or moments) with different wake-up costs differ most on the paths below full load.
  if (a.wake_cost || b.wake_cost) {
    out += `machine wake-up cost, µs of CPU per message 1 ms apart: ${change(a.wake_cost?.one_ms_apart_us, b.wake_cost?.one_ms_apart_us)}; back to back: ${change(a.wake_cost?.back_to_back_us, b.wake_cost?.back_to_back_us)}\n`;
  }
  out += '\n';
  out += table(
    ['path', 'throughput', 'p50 ms', 'p99 ms', 'ratio', 'cores idle %'],
    keys.map((key) => {
      const [ra, rb] = [rowOf(a, key), rowOf(b, key)];
      const latencyDigits = LATENCY_IN_TENTHS.has(key) ? 1 : 0;
      const text = (row: Row | undefined, figure: (r: Row) => string | number | undefined) => (row?.error !== undefined ? 'failed' : String((row && figure(row)) ?? '-'));
      return [
        nameOf(key),
        changeOf(ra, rb, (r) => leadingNumber(r?.throughput ?? ''), 1),
        changeOf(ra, rb, (r) => r?.p50_ms, latencyDigits),
        changeOf(ra, rb, (r) => r?.p99_ms, latencyDigits),
        `${text(ra, (r) => r.ratio)} → ${text(rb, (r) => r.ratio)}`,
        `${text(ra, (r) => r.cores_idle_percent)} → ${text(rb, (r) => r.cores_idle_percent)}`,
      ];
    }),
  );
  // What each failed path's error row says (its figures read `failed` above).
  for (const [label, report] of [['A', a], ['B', b]] as const) {
    const failed = report.rows.filter((r) => r.error !== undefined);
    if (failed.length > 0) out += `\nfailed in ${label}:\n${failed.map((r) => `  ${r.path}: ${r.error}`).join('\n')}\n`;
  }
  for (const [measure, title] of PER_REQUEST_MEASURES) {
    const measured = keys.filter((key) => rowOf(a, key)?.[measure] || rowOf(b, key)?.[measure]);
    if (measured.length === 0) continue;
    const rows = [...a.rows, ...b.rows].filter((r) => measured.includes(rowKey(r)));
    const groups = groupsMeasured(cpuGroups(rows), rows, measure);
    out += `\n${title} per request of each process, A → B\n`;
    out += table(
      ['path', ...groups],
      measured.map((key) => [nameOf(key), ...groups.map((g) => changeOf(rowOf(a, key), rowOf(b, key), (r) => r?.[measure]?.[g], 2))]),
    );
  }
  // A report without idle_rss_first_mb took one reading, 3 s after start, where a newer one takes the highest of
  // several over half a minute: its one reading compares with the newer first reading, not with the highest.
  const idleFirst = (r: BenchReport) => r.idle_rss_first_mb ?? r.idle_rss_mb;
  const idleHighest = (r: BenchReport) => (r.idle_rss_first_mb ? r.idle_rss_mb : undefined);
  for (const [title, measure] of [
    ['idle RSS MB, the highest reading over the first half minute', idleHighest],
    ['idle RSS MB, the first reading (3 s after start)', idleFirst],
    ['RSS MB after the paths', (r: BenchReport) => r.rss_after_paths_mb],
  ] as const) {
    const [ma, mb] = [measure(a), measure(b)];
    const services = [...new Set([...Object.keys(ma ?? {}), ...Object.keys(mb ?? {})])];
    if (services.length === 0) continue;
    out += `\n${title}, A → B\n`;
    out += table(['service', 'MB'], services.map((s) => [s, change(ma?.[s], mb?.[s])]));
  }
  const idle = [...new Set([...Object.keys(a.idle_cpu_ms_per_second ?? {}), ...Object.keys(b.idle_cpu_ms_per_second ?? {})])];
  if (idle.length > 0) {
    out += '\nidle CPU ms per second, A → B\n';
    out += table(['process', 'ms/s'], idle.map((p) => [p, change(a.idle_cpu_ms_per_second?.[p], b.idle_cpu_ms_per_second?.[p], 1)]));
  }
  return out;
}

if (require.main === module) {
  const [fileA, fileB] = process.argv.slice(2);
  if (!fileA || !fileB) {
    process.stderr.write('usage: npm run bench -- --compare A.json B.json\n');
    process.exit(2);
  }
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as BenchReport;
  process.stdout.write(compareReports(read(fileA), read(fileB)));
}
