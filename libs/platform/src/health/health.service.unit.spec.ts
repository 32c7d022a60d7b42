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

  it('given a dependency the service serves without is down, then its health is down but its readiness up, both naming it; one it needs down makes both down', async () => {
    const health = new HealthService('gateway');
    health.register('postgres', up);
    health.register('redis', down, { servesWithout: true });
    expect(await health.report()).toMatchObject({ status: 'down', dependencies: { redis: { status: 'down' } } });
    expect(await health.readiness()).toMatchObject({ status: 'up', dependencies: { redis: { status: 'down', error: 'not reading' } } });

    health.register('postgres', down);
    expect(await health.readiness()).toMatchObject({ status: 'down' });
  });
});
