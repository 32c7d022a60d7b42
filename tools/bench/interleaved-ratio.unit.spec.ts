import { interleavedRatio, medianRate } from './interleaved-ratio';

describe('the create ratio interleaved with the baseline', () => {
  it('given a machine that slows down through the windows, when each chain window is read against its two neighbours, then every round gives the same ratio', () => {
    const result = interleavedRatio([8000, 6000, 4000, 2000], [1750, 1250, 750]);
    expect(result.ratios).toEqual([0.25, 0.25, 0.25]);
    expect(result).toMatchObject({ median: 0.25, low: 0.25, high: 0.25 });
  });

  it('given rounds that differ, when summed up, then the median is the middle round and the range its extremes', () => {
    const result = interleavedRatio([4000, 4000, 4000, 4000, 4000, 4000], [800, 1200, 1000, 900, 1100]);
    expect(result.ratios).toEqual([0.2, 0.3, 0.25, 0.23, 0.28]);
    expect(result).toMatchObject({ median: 0.25, low: 0.2, high: 0.3 });
  });

  it('given an even number of rounds, when summed up, then the median is the mean of the two middle ones', () => {
    expect(interleavedRatio([1000, 1000, 1000], [200, 300]).median).toBe(0.25);
  });

  it('given baseline windows that do not surround the chain windows, when compared, then it is refused', () => {
    expect(() => interleavedRatio([1000, 1000], [200, 300])).toThrow('2 chain windows need 3 baseline windows around them, not 2');
    expect(() => interleavedRatio([1000], [])).toThrow('no chain window');
  });

  it('given a baseline that answered nothing, when compared, then that round reads 0 instead of dividing by zero', () => {
    expect(interleavedRatio([0, 0], [500]).ratios).toEqual([0]);
  });

  it('given window rates, when the median is taken, then it is the middle one, or the rounded mean of the two middle ones', () => {
    expect(medianRate([5, 1, 3])).toBe(3);
    expect(medianRate([4, 1, 2, 3])).toBe(3); // (2 + 3) / 2 rounded
  });
});
