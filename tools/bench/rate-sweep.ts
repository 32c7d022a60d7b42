/** Most rates one sweep may ask for: each costs a timed window of its own. */
const MAX_RATES = 20;

/**
 * BENCH_SWEEP (for example `50,200,400,600,800`): the create-session rates,
 * in requests a second, at which the bench also times a paced load, one
 * row each. It shows how the CPU per session and the p99 move with the
 * offered rate, and where the chain's cores stop standing idle
 * (docs/PERFORMANCE.md, "The create chain fills its cores at any rate").
 * Unset or empty: no sweep.
 */
export function sweepRates(value: string | undefined): number[] {
  if (value === undefined || value.trim() === '') return [];
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length > MAX_RATES) throw new Error(`BENCH_SWEEP: at most ${MAX_RATES} rates, got ${parts.length}`);
  return parts.map((part) => {
    const rate = Number(part);
    if (!/^\d+$/.test(part) || rate < 1 || rate > 100_000) {
      throw new Error(`BENCH_SWEEP: "${part}" is not a rate; give whole requests a second from 1 to 100000, separated by commas`);
    }
    return rate;
  });
}
