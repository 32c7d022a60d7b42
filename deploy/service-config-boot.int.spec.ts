import { spawn } from 'node:child_process';
import { SERVICE_NAMES, type ServiceName } from '@pp/contracts';
import { entryPoint, testInfra } from '@pp/testing';

/** A complete, valid environment; each case removes or spoils one variable, so boot must stop at config. */
const VALID_ENV: Record<string, string> = {
  NATS_URL: testInfra.natsUrl,
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/never_used',
  REDIS_URL: testInfra.redisUrl,
  CHECKOUT_URL_BASE: 'http://localhost:3001',
  SDK_URL: 'http://localhost:3001',
  ADMIN_TOKEN: 'admin-token-for-config-tests',
  INGEST_TOKEN: 'ingest-token-for-config-tests',
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

/** The variables an app refuses to start without, as it names them itself. */
async function requiredVariables(service: ServiceName): Promise<string[]> {
  const { stderr } = await boot(service, {});
  return [...stderr.matchAll(/([A-Z][A-Z0-9_]+) is required/g)].map((match) => match[1]);
}

describe.each(SERVICE_NAMES)('%s configuration at boot', (service) => {
  it('stops with one line naming each missing required variable', async () => {
    const required = await requiredVariables(service);
    expect(required).toContain('NATS_URL');
    const results = await Promise.all(
      required.map((variable) => {
        const env = { ...VALID_ENV };
        delete env[variable];
        return boot(service, env).then((result) => ({ variable, ...result }));
      }),
    );
    for (const { variable, code, stderr } of results) {
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain(`[${service}] failed to start: configuration error: ${variable} is required`);
    }
  });

  it('names a malformed variable and says what it must be', async () => {
    const { code, stderr } = await boot(service, { ...VALID_ENV, NATS_URL: 'http://not-nats' });
    expect(code).toBe(1);
    expect(stderr).toContain('NATS_URL is invalid: must be a nats:// URL');
  });
});
