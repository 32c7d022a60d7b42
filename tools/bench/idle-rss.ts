/** One reading of each service's RSS, `at_ms` after the readings began. */
export interface RssReading {
  at_ms: number;
  rss_mb: Partial<Record<string, number>>;
}

/**
 * When to read the services' idle RSS, in ms from the first moment the stack is ready: the first reading where the
 * bench always took its only one (3 s), then every `everyMs` up to `spanMs`. The first stays comparable with
 * older reports; the later ones catch what an idle service grows back after its start-up collection.
 */
export function rssReadingOffsets(firstMs: number, spanMs: number, everyMs: number): number[] {
  if (everyMs <= 0) throw new Error(`RSS readings every ${everyMs} ms: the step must be positive`);
  const offsets: number[] = [];
  for (let at = firstMs; at <= spanMs; at += everyMs) offsets.push(at);
  return offsets.length > 0 ? offsets : [firstMs];
}

/** Each service's highest reading (the idle figure the target is read against), and its first one. */
export function highestReadings(readings: readonly RssReading[]): { highest_mb: Record<string, number>; first_mb: Record<string, number> } {
  const highest: Record<string, number> = {};
  const first: Record<string, number> = {};
  for (const reading of readings) {
    for (const [service, mb] of Object.entries(reading.rss_mb)) {
      if (mb === undefined) continue;
      first[service] ??= mb;
      highest[service] = Math.max(highest[service] ?? mb, mb);
    }
  }
  return { highest_mb: highest, first_mb: first };
}
