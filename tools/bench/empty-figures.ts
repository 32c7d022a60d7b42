/**
 * Figures of nothing: what measured nothing shows "-" in the table and null in the JSON report, never -Infinity,
 * NaN or Infinity (Math.max() of no values, a ratio to a rate of 0), which would read as figures.
 */

/** The largest of `values` (undefined ones skipped); null when there is none. */
export function largestOrNull(values: Iterable<number | undefined>): number | null {
  let largest: number | null = null;
  for (const value of values) if (value !== undefined && (largest === null || value > largest)) largest = value;
  return largest;
}

/** From the earliest of `times` to the latest (any order, one loop: thousands of deliveries are too many to spread into Math.max); null when there is none. */
export function spanOrNull(times: readonly number[]): number | null {
  if (times.length === 0) return null;
  let [earliest, latest] = [times[0], times[0]];
  for (const time of times) [earliest, latest] = [Math.min(earliest, time), Math.max(latest, time)];
  return latest - earliest;
}

/** `value` with its unit as the table prints it ("104 MB"), or "-" for no figure. */
export const withUnit = (value: number | null, unit: string): string => (value === null ? '-' : `${value} ${unit}`);

/** `rate` against `baselineRate` as the table prints it ("0.21x"), or "-" when the baseline has no rate to read it against. */
export const ratioText = (rate: number, baselineRate: number): string => (baselineRate > 0 ? `${(rate / baselineRate).toFixed(2)}x` : '-');
