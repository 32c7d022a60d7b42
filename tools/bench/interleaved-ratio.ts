/**
 * The create ratio measured in short windows that take turns with the
 * baseline: baseline, chain, baseline, chain, ..., baseline. Each chain
 * window is read against the mean of the two baseline windows around it,
 * so a change in the machine's speed that lasts longer than a few seconds
 * moves both sides of each ratio together. The rows measured one after the
 * other can be minutes apart, and a shared host has changed its speed by
 * up to half within one run (docs/PERFORMANCE-RUNS.md, thirty-fifth
 * session).
 */
export interface InterleavedRatio {
  /** The median of the rounds' ratios: the figure to read. */
  median: number;
  low: number;
  high: number;
  /** Each chain window's rate over the mean of its two baseline windows, in the order measured. */
  ratios: number[];
}

const twoPlaces = (value: number): number => Math.round(value * 100) / 100;

/** The middle value, or the mean of the two middle ones. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `baselineRates` has one window more than `chainRates`: one before each chain window and one after the last. */
export function interleavedRatio(baselineRates: readonly number[], chainRates: readonly number[]): InterleavedRatio {
  if (chainRates.length === 0) throw new Error('no chain window to compare');
  if (baselineRates.length !== chainRates.length + 1) {
    throw new Error(`${chainRates.length} chain windows need ${chainRates.length + 1} baseline windows around them, not ${baselineRates.length}`);
  }
  const ratios = chainRates.map((chain, round) => {
    const around = (baselineRates[round] + baselineRates[round + 1]) / 2;
    return around > 0 ? twoPlaces(chain / around) : 0;
  });
  return { median: twoPlaces(median(ratios)), low: Math.min(...ratios), high: Math.max(...ratios), ratios };
}

/** The windows' median rate, as the row prints it. */
export const medianRate = (rates: readonly number[]): number => Math.round(median(rates));
