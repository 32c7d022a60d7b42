import { largestOrNull, ratioText, spanOrNull, withUnit } from './empty-figures';

describe('figures of nothing', () => {
  it('given readings, then the largest; given none (or only missing ones), then null, shown as "-"', () => {
    expect(largestOrNull([118, undefined, 95])).toBe(118);
    expect(largestOrNull([])).toBeNull();
    expect(largestOrNull([undefined])).toBeNull();
    expect(withUnit(largestOrNull([118, 95]), 'MB')).toBe('118 MB');
    expect(withUnit(largestOrNull([]), 'MB')).toBe('-');
  });

  it('given arrival times in any order, then the span from the first to the last; given one, 0; given none, null', () => {
    expect(spanOrNull([1_050, 1_000, 1_400])).toBe(400);
    expect(spanOrNull([1_000])).toBe(0);
    expect(spanOrNull([])).toBeNull();
  });

  it('given a baseline rate, then the ratio to two places; given a baseline of 0 req/s, then "-", not Infinityx or NaNx', () => {
    expect(ratioText(210, 1000)).toBe('0.21x');
    expect(ratioText(210, 0)).toBe('-');
    expect(ratioText(0, 0)).toBe('-');
  });
});
