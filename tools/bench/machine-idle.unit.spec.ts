import { idlePercentBetween, parseMachineCpuTimes } from './machine-idle';

describe('the machine idle share', () => {
  it('given /proc/stat, when parsed, then idle counts idle and iowait and the total leaves out the guest time already in user', () => {
    const stat = 'cpu  100 5 50 800 20 3 2 0 40 0\ncpu0 50 2 25 400 10 1 1 0 20 0\nintr 12345\n';
    expect(parseMachineCpuTimes(stat)).toEqual({ idle: 820, total: 980 });
  });

  it('given a line that is not the summary, when parsed, then it is refused', () => {
    expect(() => parseMachineCpuTimes('cpu0 1 2 3 4\n')).toThrow('not the summary line');
  });

  it('given two readings, when compared, then the idle share of the ticks between them is given in per cent', () => {
    expect(idlePercentBetween({ idle: 800, total: 1000 }, { idle: 926, total: 2000 })).toBe(12.6);
    expect(idlePercentBetween({ idle: 5, total: 10 }, { idle: 5, total: 10 })).toBe(0);
  });
});
