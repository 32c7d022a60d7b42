/**
 * Throughput counts successes only: a load generator's rate counts every answer, and a 4xx or 5xx is cheaper
 * and quicker than the work the path is there to measure, so a path failing part of its requests would read
 * faster. The rest are counted apart, and a run that has any says so.
 */

/**
 * `averageRate` (answers a second, any status) scaled to the successes' share of the answers: the same
 * figure as before whenever every answer succeeded.
 */
export function successRate(averageRate: number, succeeded: number, answered: number): number {
  return answered > 0 ? Math.round((averageRate * succeeded) / answered) : 0;
}

/** The warning to print when `what` had anything besides its successes (`others`, counts by kind); undefined when it had none. */
export function notCountedWarning(what: string, others: Readonly<Record<string, number>>): string | undefined {
  const nonZero = Object.entries(others).filter(([, count]) => count > 0);
  if (nonZero.length === 0) return undefined;
  return `warning: ${what}: ${nonZero.map(([kind, count]) => `${count} ${kind}`).join(', ')}, left out of its rate (see the row's detail)`;
}

/**
 * Throws when the baseline measured no rate of 2xx answers: every create row is read against it, and a ratio
 * to 0 reads Infinityx or NaNx. Its counts say what it got instead (its row, kept, has them too).
 */
export function checkBaselineAnswered(baseline: { requests_per_second: number; non_2xx: number; errors: number }): void {
  if (baseline.requests_per_second > 0) return;
  throw new Error(
    `the baseline measured 0 req/s of 2xx answers (${baseline.non_2xx} non-2xx answers, ${baseline.errors} errors): the create rows have no rate to be read against`,
  );
}
