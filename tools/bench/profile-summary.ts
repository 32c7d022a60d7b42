import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchReport } from './report';

/**
 * `npm run bench -- --profile-summary REPORT.json`: where each service's CPU
 * went during each path of a `BENCH_PROFILE=true` run, by the project's own
 * folders. A busy sample counts for the innermost frame of the project's code
 * on its stack (the folder of its compiled file: apps/gateway/src/idempotency,
 * libs/platform/src/nats), so what a folder's code spends in the libraries,
 * Node and crypto it calls counts for that folder; a sample with no project
 * frame is the framework's and the runtime's own work (HTTP parsing, socket
 * reads, timers), and garbage collection counts apart. Only the samples inside
 * the path's CPU window (its `profile_window_us`) count.
 */

/** The parts of a V8 .cpuprofile this reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  /** Microseconds on the monotonic clock, as `process.hrtime` reads it. */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface FolderShare {
  folder: string;
  samples: number;
}

export const NO_PROJECT_FRAME = 'framework and runtime (no project frame)';
export const GARBAGE_COLLECTION = 'garbage collection';
const NOT_BUSY = new Set(['(idle)', '(program)']);

/** The project folder of a compiled file's address (…/dist/apps/gateway/src/http/x.js → apps/gateway/src/http); undefined elsewhere. */
export function projectFolder(url: string): string | undefined {
  const match = /\/dist\/((?:apps|libs|tools)\/.+)\/[^/]+\.js$/.exec(url);
  return match?.[1];
}

/** Each busy sample of a profile once: when it was taken (µs) and the folder it counts for. */
export interface AttributedSamples {
  startTime: number;
  endTime: number;
  samples: ReadonlyArray<{ at: number; folder: string }>;
}

/** Attributes a profile's busy samples, walking each distinct stack once. */
export function attributeSamples(profile: CpuProfile): AttributedSamples {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const ownerOf = new Map<number, string>(); // by leaf node: a leaf is one whole stack
  const owner = (leaf: number): string => {
    let found = ownerOf.get(leaf) ?? (nodes.get(leaf)?.callFrame.functionName === '(garbage collector)' ? GARBAGE_COLLECTION : undefined);
    for (let id: number | undefined = leaf; !found && id !== undefined; id = parentOf.get(id)) found = projectFolder(nodes.get(id)?.callFrame.url ?? '');
    ownerOf.set(leaf, found ?? NO_PROJECT_FRAME);
    return found ?? NO_PROJECT_FRAME;
  };
  const samples: Array<{ at: number; folder: string }> = [];
  let at = profile.startTime;
  profile.samples.forEach((leaf, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (!NOT_BUSY.has(nodes.get(leaf)?.callFrame.functionName ?? '')) samples.push({ at, folder: owner(leaf) });
  });
  return { startTime: profile.startTime, endTime: profile.endTime, samples };
}

/** Busy samples in [fromUs, toUs) by the folder they count for, most first. */
export function sharesByFolder(attributed: AttributedSamples, fromUs: number, toUs: number): FolderShare[] {
  const counts = new Map<string, number>();
  for (const { at, folder } of attributed.samples) if (at >= fromUs && at < toUs) counts.set(folder, (counts.get(folder) ?? 0) + 1);
  return [...counts].map(([folder, samples]) => ({ folder, samples })).sort((a, b) => b.samples - a.samples);
}

/**
 * One line per service a path's window falls in: its busy samples and the folders with the largest shares.
 * Services with fewer than `minSamples` busy samples in the window (about a millisecond each) are left out:
 * an idle service's few say nothing about the path.
 */
export function summarizeProfiles(
  report: BenchReport,
  profiles: ReadonlyArray<{ name: string; profile: CpuProfile }>,
  { top = 8, minSamples = 100 }: { top?: number; minSamples?: number } = {},
): string {
  const attributed = profiles.map(({ name, profile }) => ({ name, samples: attributeSamples(profile) }));
  let out = '';
  for (const row of report.rows) {
    const window = row.profile_window_us;
    if (!window) continue;
    const lines: string[] = [];
    for (const { name, samples } of attributed) {
      if (samples.startTime > window[0] || samples.endTime < window[1]) continue; // not running through the whole path
      const shares = sharesByFolder(samples, window[0], window[1]);
      const busy = shares.reduce((sum, share) => sum + share.samples, 0);
      if (busy < minSamples) continue;
      const percent = (samples: number) => `${((100 * samples) / busy).toFixed(1)} %`;
      const rest = shares.slice(top).reduce((sum, share) => sum + share.samples, 0);
      const listed = shares.slice(0, top).map((share) => `${share.folder} ${percent(share.samples)}`);
      lines.push(`  ${name} (${busy} busy samples): ${[...listed, ...(rest > 0 ? [`the rest ${percent(rest)}`] : [])].join(', ')}`);
    }
    if (lines.length > 0) out += `${row.path}\n${lines.join('\n')}\n`;
  }
  return out || `no service's profile covers a path of this report with ${minSamples} busy samples or more (profiles come from a run with BENCH_PROFILE=true)\n`;
}

/** The services' profiles in `directory`, as the bench names them: <service>.<pid>.<thread>.cpuprofile (thread 0 is the main thread). */
export function readNamedProfiles(directory: string): Array<{ name: string; profile: CpuProfile }> {
  return readdirSync(directory)
    .filter((file) => /^[a-z]+\.\d+\.\d+\.cpuprofile$/.test(file))
    .sort()
    .map((file) => ({ name: file.replace(/\.cpuprofile$/, ''), profile: JSON.parse(readFileSync(join(directory, file), 'utf8')) as CpuProfile }));
}

if (require.main === module) {
  const [reportFile, directory] = process.argv.slice(2);
  if (!reportFile || !directory) {
    process.stderr.write('usage: npm run bench -- --profile-summary bench/reports/<time>.json\n');
    process.exit(2);
  }
  process.stdout.write(summarizeProfiles(JSON.parse(readFileSync(reportFile, 'utf8')) as BenchReport, readNamedProfiles(directory)));
}
