import { BenchSettings, benchEnvironment } from './settings';

describe("the run's settings", () => {
  it('given some settings set and others not, when read, then each is recorded with the value it took, defaults included', () => {
    const settings = new BenchSettings({ BENCH_SECONDS: '5', BENCH_TRACE: 'true' });
    expect(settings.number('BENCH_SECONDS', 10)).toBe(5);
    expect(settings.number('BENCH_CONNECTIONS', 50)).toBe(50);
    expect(settings.text('BENCH_PATHS', 'create,webhook')).toBe('create,webhook');
    expect(settings.flag('BENCH_TRACE')).toBe(true);
    expect(settings.flag('BENCH_PROFILE')).toBe(false);
    expect(settings.recorded()).toEqual({
      BENCH_CONNECTIONS: '50',
      BENCH_PATHS: 'create,webhook',
      BENCH_PROFILE: 'false',
      BENCH_SECONDS: '5',
      BENCH_TRACE: 'true',
    });
  });

  it('given a setting read as a number from text that is none, then it is recorded as read (NaN), not as the default', () => {
    const settings = new BenchSettings({ BENCH_SECONDS: 'ten' });
    expect(settings.number('BENCH_SECONDS', 10)).toBeNaN();
    expect(settings.recorded()).toEqual({ BENCH_SECONDS: 'NaN' });
  });

  it('given an environment, then every BENCH_ variable as set is kept, misspelt ones too, and nothing else', () => {
    expect(benchEnvironment({ BENCH_SECOND: '5', BENCH_NODE: '24', PATH: '/bin', NODE_OPTIONS: '--x' })).toEqual({ BENCH_NODE: '24', BENCH_SECOND: '5' });
  });
});
