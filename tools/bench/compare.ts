import { readFileSync } from 'node:fs';
import { type BenchReport, cpuGroups, groupsMeasured, PER_REQUEST_MEASURES, table } from './report';

/**
 * `npm run bench -- --compare A.json B.json`: what changed from report A to
 * report B, path by path (rows matched by their name): throughput, latency and
 * each process's CPU ms per request, with B's change relative to A.
 */

const leadingNumber = (text: string): number | undefined => {
  const match = /^(-?[\d,.]+)/.exec(text);
  return match ? Number(match[1].replace(/,/g, '')) : undefined;
};

const change = (a: number | undefined | null, b: number | undefined | null, digits = 0): string => {
  if (a === undefined || a === null || b === undefined || b === null) return `${a ?? '-'} → ${b ?? '-'}`;
  const pct = a === 0 ? '' : ` (${b >= a ? '+' : ''}${Math.round(((b - a) / a) * 100)}%)`;
  return `${a.toFixed(digits)} → ${b.toFixed(digits)}${pct}`;
};

export function compareReports(a: BenchReport, b: BenchReport): string {
  const paths = [...new Set([...a.rows.map((r) => r.path), ...b.rows.map((r) => r.path)])];
  const rowOf = (report: BenchReport, path: string) => report.rows.find((r) => r.path === path);
  const run = (r: BenchReport) => `${r.at} (Node ${r.node ?? '?'}, load average ${r.load_average?.join(' ') ?? '?'})`;
  let out = `A: ${run(a)}\nB: ${run(b)}\n`;
  // Runs on machines (or moments) with different wake-up costs differ most on the paths below full load.
  if (a.wake_cost || b.wake_cost) {
    out += `machine wake-up cost, µs of CPU per message 1 ms apart: ${change(a.wake_cost?.one_ms_apart_us, b.wake_cost?.one_ms_apart_us)}; back to back: ${change(a.wake_cost?.back_to_back_us, b.wake_cost?.back_to_back_us)}\n`;
  }
  out += '\n';
  out += table(
    ['path', 'throughput', 'p50 ms', 'p99 ms', 'ratio', 'cores idle %'],
    paths.map((path) => {
      const [ra, rb] = [rowOf(a, path), rowOf(b, path)];
      return [
        path,
        change(leadingNumber(ra?.throughput ?? ''), leadingNumber(rb?.throughput ?? ''), 1),
        change(ra?.p50_ms, rb?.p50_ms),
        change(ra?.p99_ms, rb?.p99_ms),
        `${ra?.ratio ?? '-'} → ${rb?.ratio ?? '-'}`,
        `${ra?.cores_idle_percent ?? '-'} → ${rb?.cores_idle_percent ?? '-'}`,
      ];
    }),
  );
  for (const [measure, title] of PER_REQUEST_MEASURES) {
    const measured = paths.filter((path) => rowOf(a, path)?.[measure] || rowOf(b, path)?.[measure]);
    if (measured.length === 0) continue;
    const rows = [...a.rows, ...b.rows].filter((r) => measured.includes(r.path));
    const groups = groupsMeasured(cpuGroups(rows), rows, measure);
    out += `\n${title} per request of each process, A → B\n`;
    out += table(
      ['path', ...groups],
      measured.map((path) => [path, ...groups.map((g) => change(rowOf(a, path)?.[measure]?.[g], rowOf(b, path)?.[measure]?.[g], 2))]),
    );
  }
  for (const [title, measure] of [
    ['idle RSS MB', 'idle_rss_mb'],
    ['RSS MB after the paths', 'rss_after_paths_mb'],
  ] as const) {
    const services = [...new Set([...Object.keys(a[measure] ?? {}), ...Object.keys(b[measure] ?? {})])];
    if (services.length === 0) continue;
    out += `\n${title}, A → B\n`;
    out += table(['service', 'MB'], services.map((s) => [s, change(a[measure]?.[s], b[measure]?.[s])]));
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
