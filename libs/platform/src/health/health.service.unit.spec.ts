import { HealthService } from './health.service';

describe('HealthService', () => {
  const up = () => Promise.resolve();
  const down = () => Promise.reject(new Error('not reading'));

  it('given a readiness-only check down, then the service is not ready but still live', async () => {
    const health = new HealthService('webhooks');
    health.register('postgres', up);
    health.register('merchant-events', down, { readinessOnly: true });
    expect(await health.report()).toMatchObject({ status: 'down', live: 'up', dependencies: { 'merchant-events': { status: 'down', error: 'not reading' } } });
  });

  it('given any other check down, then the service is neither ready nor live', async () => {
    const health = new HealthService('webhooks');
    health.register('postgres', down);
    health.register('merchant-events', up, { readinessOnly: true });
    expect(await health.report()).toMatchObject({ status: 'down', live: 'down' });
  });
});
