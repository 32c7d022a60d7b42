import { HealthService } from './health.service';

describe('HealthService', () => {
  const up = () => Promise.resolve();
  const down = () => Promise.reject(new Error('not reading'));
  const silent = () => new Promise<void>(() => undefined);

  it('given every check up, then the service is up, each check with its latency', async () => {
    const health = new HealthService('webhooks');
    health.register('postgres', up);
    health.register('merchant-events', up);
    expect(await health.report()).toMatchObject({ service: 'webhooks', status: 'up', dependencies: { postgres: { status: 'up', latency_ms: expect.any(Number) }, 'merchant-events': { status: 'up' } } });
  });

  it('given one check down and one silent past its deadline, then the service is down, naming why for each', async () => {
    const health = new HealthService('webhooks', 50);
    health.register('postgres', silent);
    health.register('merchant-events', down);
    expect(await health.report()).toMatchObject({
      status: 'down',
      dependencies: { postgres: { status: 'down', error: 'no answer within 50 ms' }, 'merchant-events': { status: 'down', error: 'not reading' } },
    });
  });
});
