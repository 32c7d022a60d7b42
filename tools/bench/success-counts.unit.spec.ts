import { checkBaselineAnswered, notCountedWarning, successRate } from './success-counts';

describe('throughput from successes only', () => {
  it('given every answer a success, then the rate is the average itself', () => {
    expect(successRate(1234.4, 12_344, 12_344)).toBe(1234);
  });

  it('given a tenth of the answers not 2xx, then the rate is nine tenths of the average', () => {
    expect(successRate(1000, 9000, 10_000)).toBe(900);
  });

  it('given no answer, then the rate is 0', () => {
    expect(successRate(0, 0, 0)).toBe(0);
  });

  it('given only zero counts besides the successes, then no warning', () => {
    expect(notCountedWarning('create session', { non_2xx: 0, errors: 0 })).toBeUndefined();
  });

  it('given some failures, then the warning names the path and each non-zero count', () => {
    expect(notCountedWarning('create session', { non_2xx: 3, errors: 0, timeouts: 1 })).toBe(
      "warning: create session: 3 non_2xx, 1 timeouts, left out of its rate (see the row's detail)",
    );
  });

  it('given a baseline with no 2xx answers, then the create path fails, saying what it got instead', () => {
    expect(() => checkBaselineAnswered({ requests_per_second: 0, non_2xx: 0, errors: 4812 })).toThrow(
      'the baseline measured 0 req/s of 2xx answers (0 non-2xx answers, 4812 errors): the create rows have no rate to be read against',
    );
  });

  it('given a baseline with a rate, then the create path goes on', () => {
    expect(() => checkBaselineAnswered({ requests_per_second: 2480, non_2xx: 3, errors: 0 })).not.toThrow();
  });
});
