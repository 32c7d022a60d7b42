import { loadConfig } from '@pp/platform';
import { configProblems } from '@pp/testing';
import { DashboardConfig } from './dashboard.config';

const base = {
  NATS_URL: 'nats://dashboard:p0d3b8e1f6a9c2e5b8d1f4a7c0e3b6d9@127.0.0.1:4222',
  REDIS_URL: 'redis://dashboard:p0d3b8e1f6a9c2e5b8d1f4a7c0e3b6d9@127.0.0.1:6379',
};
const problems = (env: Record<string, string>) => configProblems(DashboardConfig, { ...base, ...env });

describe('dashboard configuration', () => {
  it('given NODE_ENV=production, when the session cookie is made plain, then the dashboard refuses to start and says why', () => {
    expect(problems({ NODE_ENV: 'production', DASHBOARD_SECURE_COOKIE: 'false' })).toEqual([
      'DASHBOARD_SECURE_COOKIE is invalid: must not be false unless NODE_ENV is unset, development or test: the session cookie must be Secure and __Host- outside development and tests',
    ]);
  });

  it('given another named environment (staging), when the session cookie is made plain, then it is refused as in production', () => {
    expect(problems({ NODE_ENV: 'staging', DASHBOARD_SECURE_COOKIE: 'false' })).toHaveLength(1);
  });

  it('given NODE_ENV=production, when the cookie is left Secure, then it starts', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([]);
    expect(loadConfig(DashboardConfig, { ...base, NODE_ENV: 'production', DASHBOARD_SECURE_COOKIE: 'true' }).DASHBOARD_SECURE_COOKIE).toBe(true);
  });

  it('given development or tests, when the cookie is made plain (http://localhost), then it starts with it plain', () => {
    for (const nodeEnv of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
      expect(loadConfig(DashboardConfig, { ...base, ...nodeEnv, DASHBOARD_SECURE_COOKIE: 'false' }).DASHBOARD_SECURE_COOKIE).toBe(false);
    }
  });
});
