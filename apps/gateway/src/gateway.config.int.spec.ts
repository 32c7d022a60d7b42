import { fork } from 'node:child_process';
import { entryPoint, testInfra } from '@pp/testing';

/** Starts the compiled gateway with `env` and collects how it ends. */
function runGateway(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = fork(entryPoint('gateway'), [], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('gateway configuration', () => {
  const base = {
    NATS_URL: testInfra.natsUrl,
    REDIS_URL: testInfra.redisUrl,
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/never_used',
    INGEST_TOKEN: 'ing_4f9a1c2e7b3d5a8c6e0f1a2b3c4d5e6f',
    SERVER_SECRET: 'q7Vd2LxR9mKp4TzW8nYc3HbJ6sFg1AeU',
    GATEWAY_PORT: '0',
  };

  it('exits non-zero naming ADMIN_TOKEN when it is missing', async () => {
    const { code, stderr } = await runGateway(base);
    expect(code).not.toBe(0);
    expect(stderr).toContain('ADMIN_TOKEN is required');
  });

  it('exits non-zero naming each token that is shorter than 32 characters', async () => {
    const { code, stderr } = await runGateway({ ...base, ADMIN_TOKEN: 'short', INGEST_TOKEN: 'ing_4f9a1c2e7b3d5a8c6e0f1a2b3c4' });
    expect(code).not.toBe(0);
    expect(stderr).toContain('ADMIN_TOKEN is invalid: must be at least 32 characters; must be 32+ random characters, e.g. openssl rand -hex 32');
    expect(stderr).toContain('INGEST_TOKEN is invalid: must be at least 32 characters');
  });

  it('exits non-zero when a token is a placeholder, however long', async () => {
    const { code, stderr } = await runGateway({ ...base, ADMIN_TOKEN: 'change-me-admin-token-change-me-admin-token' });
    expect(code).not.toBe(0);
    expect(stderr).toContain('ADMIN_TOKEN is invalid: looks like a placeholder (contains "change-me")');
  });

  it('exits non-zero naming SERVER_SECRET when it is missing, short or a placeholder', async () => {
    const withoutSecret = Object.fromEntries(Object.entries(base).filter(([name]) => name !== 'SERVER_SECRET'));
    const missing = await runGateway({ ...withoutSecret, ADMIN_TOKEN: 'adm_9c1e4b7a2f5d8e3b6a0c9f2e5b8d1a4c' });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('SERVER_SECRET is required (must be 32+ random characters');
    const short = await runGateway({ ...base, ADMIN_TOKEN: 'adm_9c1e4b7a2f5d8e3b6a0c9f2e5b8d1a4c', SERVER_SECRET: 'too-short-0123456789' });
    expect(short.stderr).toContain('SERVER_SECRET is invalid: must be at least 32 characters');
    const placeholder = await runGateway({ ...base, ADMIN_TOKEN: 'adm_9c1e4b7a2f5d8e3b6a0c9f2e5b8d1a4c', SERVER_SECRET: 'change-me-server-secret-0123456789' });
    expect(placeholder.code).not.toBe(0);
    expect(placeholder.stderr).toContain('SERVER_SECRET is invalid: looks like a placeholder');
  });

  it('exits non-zero naming API_KEY_CACHE_TTL_MS when it is not a number of milliseconds up to 10 minutes', async () => {
    const tokens = { ADMIN_TOKEN: 'adm_9c1e4b7a2f5d8e3b6a0c9f2e5b8d1a4c' };
    for (const ttl of ['five seconds', '-1', '600001']) {
      const { code, stderr } = await runGateway({ ...base, ...tokens, API_KEY_CACHE_TTL_MS: ttl });
      expect(code).not.toBe(0);
      expect(stderr).toContain('API_KEY_CACHE_TTL_MS is invalid: must be a whole number of milliseconds, from 0 to 600000 (10 minutes)');
    }
  });
});
