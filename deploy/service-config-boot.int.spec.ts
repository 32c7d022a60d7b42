import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { SERVICE_NAMES, type ServiceName } from '@pp/contracts';
import { entryPoint, testInfra } from '@pp/testing';

/** A complete, valid environment; each case removes or spoils one variable, so boot must stop at config. */
const VALID_ENV: Record<string, string> = {
  NATS_URL: testInfra.natsUrl,
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/never_used',
  REDIS_URL: testInfra.redisUrl,
  CHECKOUT_URL_BASE: 'http://localhost:3001',
  SDK_URL: 'http://localhost:3001',
  ADMIN_TOKEN: 'adm_3f8c1a9e5b7d2f4a6c8e0b1d3f5a7c9e',
  INGEST_TOKEN: 'ing_9e7c5a3f1d8b6e4c2a0f9d7b5e3c1a8f',
  SERVER_SECRET: 'q7Vd2LxR9mKp4TzW8nYc3HbJ6sFg1AeU',
  WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};

function boot(service: ServiceName, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entryPoint(service)], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe.each(SERVICE_NAMES)('%s configuration at boot', (service) => {
  it('stops with one line naming every missing required variable', async () => {
    const { code, stderr } = await boot(service, {});
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`^\\[${service}\\] failed to start: configuration error: .*NATS_URL is required`));
    const named = [...stderr.matchAll(/([A-Z][A-Z0-9_]+) is required/g)].map((match) => match[1]);
    // Whatever it names must be a variable the complete environment provides: nothing required is undocumented.
    expect(named.filter((variable) => !(variable in VALID_ENV))).toEqual([]);
  });

  it('names only the one variable that is missing', async () => {
    const env = { ...VALID_ENV };
    delete env.NATS_URL;
    const { code, stderr } = await boot(service, env);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`[${service}] failed to start: configuration error: NATS_URL is required (must be a nats:// URL, e.g. nats://127.0.0.1:4222)`);
  });

  it('names a malformed variable and says what it must be', async () => {
    const { code, stderr } = await boot(service, { ...VALID_ENV, NATS_URL: 'http://not-nats' });
    expect(code).toBe(1);
    expect(stderr).toContain('NATS_URL is invalid: must be a nats:// URL');
  });
});

describe('gateway operator tokens at boot', () => {
  it.each([
    ['ADMIN_TOKEN', 'short', 'adm_3f8c1a9e5b7d', 'must be at least 32 characters'],
    ['INGEST_TOKEN', 'short', 'ing_9e7c5a3f1d8b', 'must be at least 32 characters'],
    ['ADMIN_TOKEN', 'placeholder', 'change-me-admin-token-change-me-admin', 'looks like a placeholder (contains "change-me")'],
    ['INGEST_TOKEN', 'placeholder', 'example-ingest-token-example-ingest-token', 'looks like a placeholder (contains "example")'],
    ['ADMIN_TOKEN', 'repeated', 'x'.repeat(48), 'looks like a placeholder (too few distinct characters)'],
  ])('stops when %s is %s, saying why and how to make one', async (variable, _case, value, problem) => {
    const { code, stderr } = await boot('gateway', { ...VALID_ENV, [variable]: value });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `[gateway] failed to start: configuration error: ${variable} is invalid: ${problem}; must be 32+ random characters, e.g. openssl rand -hex 32`,
    );
  });
});
