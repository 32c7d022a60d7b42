import { highestReadings, rssReadingOffsets } from './idle-rss';

describe("the services' idle RSS over half a minute", () => {
  it('given the first reading at 3 s and one every 3 s up to 30 s, then ten readings from 3 s to 30 s', () => {
    expect(rssReadingOffsets(3000, 30_000, 3000)).toEqual([3000, 6000, 9000, 12_000, 15_000, 18_000, 21_000, 24_000, 27_000, 30_000]);
  });

  it('given a span shorter than the first reading, then the first reading alone', () => {
    expect(rssReadingOffsets(3000, 1000, 3000)).toEqual([3000]);
  });

  it('given a step that is not positive, then it is refused instead of looping', () => {
    expect(() => rssReadingOffsets(3000, 30_000, 0)).toThrow('must be positive');
  });

  it('given readings that rise and fall, then each service keeps its highest, and its first apart', () => {
    const summary = highestReadings([
      { at_ms: 3000, rss_mb: { gateway: 110, ledger: 95 } },
      { at_ms: 6000, rss_mb: { gateway: 118, ledger: 94 } },
      { at_ms: 9000, rss_mb: { gateway: 112 } },
    ]);
    expect(summary).toEqual({ highest_mb: { gateway: 118, ledger: 95 }, first_mb: { gateway: 110, ledger: 95 } });
  });
});
