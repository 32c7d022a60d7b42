import { BenchSettings, benchEnvironment, benchPaths } from './settings';

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

  it.each([
    ['an empty value', ''],
    ['a unit after the number', '10s'],
    ['text', 'ten'],
    ['a fraction', '2.5'],
    ['a negative number', '-1'],
    ['a number below the least allowed', '0'],
  ])('given a number setting set to %s, when read, then it throws naming the variable and what it allows', (_, value) => {
    const settings = new BenchSettings({ BENCH_SECONDS: value });
    expect(() => settings.number('BENCH_SECONDS', 10, { min: 1 })).toThrow(`BENCH_SECONDS=${JSON.stringify(value)}: give a whole number of 1 or more (unset: 10)`);
  });

  it('given a number setting at its least allowed value, or with spaces around it, then it is read', () => {
    const settings = new BenchSettings({ BENCH_WEBHOOK_GAP_MS: '0', BENCH_CONNECTIONS: ' 100 ' });
    expect(settings.number('BENCH_WEBHOOK_GAP_MS', 0)).toBe(0);
    expect(settings.number('BENCH_CONNECTIONS', 50, { min: 1 })).toBe(100);
    expect(settings.recorded()).toEqual({ BENCH_CONNECTIONS: '100', BENCH_WEBHOOK_GAP_MS: '0' });
  });

  it('given BENCH_PATHS naming known paths, then those are run', () => {
    expect([...benchPaths('create,webhook,ingest,fanout')]).toEqual(['create', 'webhook', 'ingest', 'fanout']);
    expect([...benchPaths(' ingest , fanout,')]).toEqual(['ingest', 'fanout']);
  });

  it('given BENCH_PATHS naming a path that is none of them, then it throws naming it and the paths there are', () => {
    expect(() => benchPaths('create,webhooks')).toThrow(
      'BENCH_PATHS="create,webhooks": no path is called "webhooks"; give one or more of create, webhook, ingest, fanout, separated by commas (unset: all)',
    );
  });

  it('given BENCH_PATHS set to nothing, then it throws rather than run no path', () => {
    expect(() => benchPaths(' ')).toThrow('BENCH_PATHS=" ": no path named; give one or more of create, webhook, ingest, fanout, separated by commas (unset: all)');
  });

  it('given an environment, then every BENCH_ variable as set is kept, misspelt ones too, and nothing else', () => {
    expect(benchEnvironment({ BENCH_SECOND: '5', BENCH_NODE: '24', PATH: '/bin', NODE_OPTIONS: '--x' })).toEqual({ BENCH_NODE: '24', BENCH_SECOND: '5' });
  });
});
