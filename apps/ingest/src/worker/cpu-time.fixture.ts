/**
 * For specs bounding the work done on hostile input: the CPU milliseconds
 * (user + system) this process spends running `work`, and its result. CPU
 * time rather than wall time, so that other work on a shared machine does not count.
 */
export async function cpuTime<T>(work: () => T | Promise<T>): Promise<{ ms: number; result: T }> {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, result };
}
