import { publicHealth } from './public-health.policy';

describe('publicHealth (what /readyz shows of a component)', () => {
  it('given an up component, when shown, then only status and latency remain', () => {
    expect(publicHealth({ status: 'up', latency_ms: 3 })).toEqual({ status: 'up', latency_ms: 3 });
  });

  it.each([
    ['no answer within 1000 ms', 'no answer within 1000 ms'],
    ['dependencies down: postgres, redis', 'dependencies down: postgres, redis'],
    ['health.ledger did not answer within 1000 ms', 'no answer within 1000 ms'],
    ['No service is answering ns1.health.ledger', 'not answering'],
    ['connect ECONNREFUSED 10.1.2.3:5432', 'not answering'],
    ['getaddrinfo ENOTFOUND redis-primary.internal.example', 'not answering'],
    ['password authentication failed for user "gateway"', 'not answering'],
    ['dependencies down: postgres (10.0.0.5)', 'not answering'],
  ])('given a down component failing with %p, when shown, then the reason is %p', (error, reason) => {
    expect(publicHealth({ status: 'down', latency_ms: 1000, error })).toEqual({ status: 'down', latency_ms: 1000, error: reason });
  });
});
