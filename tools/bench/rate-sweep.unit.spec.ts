import { sweepRates } from './rate-sweep';

describe('the create-session rate sweep (BENCH_SWEEP)', () => {
  it('given no value or an empty one, when read, then there is no sweep', () => {
    expect(sweepRates(undefined)).toEqual([]);
    expect(sweepRates(' ')).toEqual([]);
  });

  it('given rates separated by commas, when read, then they come back in the order given', () => {
    expect(sweepRates('50, 200,400')).toEqual([50, 200, 400]);
  });

  it('given something that is not a whole rate, when read, then it is refused with what to give instead', () => {
    expect(() => sweepRates('50,fast')).toThrow('"fast" is not a rate');
    expect(() => sweepRates('0')).toThrow('is not a rate');
    expect(() => sweepRates('12.5')).toThrow('is not a rate');
    expect(() => sweepRates('50,,100')).toThrow('"" is not a rate');
  });

  it('given more rates than a run should time, when read, then it is refused', () => {
    expect(() => sweepRates(Array.from({ length: 21 }, (_, i) => String(i + 1)).join(','))).toThrow('at most 20 rates');
  });
});
