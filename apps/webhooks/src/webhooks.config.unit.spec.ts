import { loadConfig } from '@pp/platform';
import { configProblems } from '@pp/testing';
import { retryScheduleMs, WebhooksConfig } from './webhooks.config';

const base = {
  NATS_URL: 'nats://webhooks:p0d3b8e1f6a9c2e5b8d1f4a7c0e3b6d9@127.0.0.1:4222',
  DATABASE_URL: 'postgres://pp_webhooks:p0d3b8e1f6a9c2e5b8d1f4a7c0e3b6d9@127.0.0.1:5432/pp',
  REDIS_URL: 'redis://webhooks:p0d3b8e1f6a9c2e5b8d1f4a7c0e3b6d9@127.0.0.1:6379',
  WEBHOOK_SECRET_KEYS: `k1:${Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7)).toString('base64')}`,
};
const problems = (env: Record<string, string>) => configProblems(WebhooksConfig, { ...base, ...env });

describe('webhooks configuration', () => {
  it('given NODE_ENV=production, when private URLs are allowed, then the service refuses to start and says why', () => {
    expect(problems({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).toEqual([
      'WEBHOOK_ALLOW_PRIVATE_URLS is invalid: must not be true unless NODE_ENV is unset, development or test: private URLs are for development and tests only (endpoints could reach loopback, private and metadata addresses)',
    ]);
  });

  it('given another named environment (staging), when private URLs are allowed, then it is refused as in production', () => {
    expect(problems({ NODE_ENV: 'staging', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).toHaveLength(1);
  });

  it('given NODE_ENV=production, when private URLs are left off, then it starts with them refused', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([]);
    expect(problems({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'false' })).toEqual([]);
    expect(loadConfig(WebhooksConfig, { ...base, NODE_ENV: 'production' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
  });

  it('given development or tests, when private URLs are allowed, then it starts with them allowed', () => {
    for (const nodeEnv of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
      expect(loadConfig(WebhooksConfig, { ...base, ...nodeEnv, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    }
  });

  it('given no WEBHOOK_RETRY_SCHEDULE, then the default is the one DESIGN §4 fixes, eight attempts, the first at once', () => {
    expect(loadConfig(WebhooksConfig, base).WEBHOOK_RETRY_SCHEDULE).toBe('0,5,300,1800,7200,18000,36000,36000');
    expect(retryScheduleMs(loadConfig(WebhooksConfig, base))).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });
});
