import { readFileSync } from 'node:fs';

/** The machine's CPU time so far, in clock ticks summed over all cores: how much of it was idle, of all. */
export interface MachineCpuTimes {
  idle: number;
  total: number;
}

/**
 * Reads the first line of /proc/stat (`cpu  user nice system idle iowait irq
 * softirq steal guest guest_nice`). Idle counts idle and iowait; the total
 * leaves out guest and guest_nice, which the kernel already counts in user
 * and nice.
 */
export function parseMachineCpuTimes(procStat: string): MachineCpuTimes {
  const line = procStat.slice(0, procStat.indexOf('\n') === -1 ? undefined : procStat.indexOf('\n'));
  const fields = line.trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 5) throw new Error(`not the summary line of /proc/stat: ${line.slice(0, 80)}`);
  const ticks = fields.slice(1, 9).map(Number);
  const [, , , idle, iowait = 0] = ticks;
  return { idle: idle + iowait, total: ticks.reduce((sum, n) => sum + n, 0) };
}

export function readMachineCpuTimes(): MachineCpuTimes {
  return parseMachineCpuTimes(readFileSync('/proc/stat', 'utf8'));
}

/**
 * The share of the machine's cores that stood idle between two readings, in
 * per cent. A throughput path whose cores stand idle is bound by something
 * else than its CPU (its depth, a lock, a timer), which its CPU per request
 * does not show.
 */
export function idlePercentBetween(before: MachineCpuTimes, after: MachineCpuTimes): number {
  const total = after.total - before.total;
  return total > 0 ? Math.round(((after.idle - before.idle) / total) * 1000) / 10 : 0;
}
