import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort, testInfra } from '@pp/testing';

/*
 * The launcher starts an installed server that does not answer (here Redis,
 * whose package this machine has): on the port REDIS_URL names, keeping its
 * files in the checkout's .dev/redis rather than the shared /tmp.
 */

const root = join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is plain CommonJS
const { ensureInfrastructure } = require('./infrastructure') as { ensureInfrastructure: (root: string, env: Record<string, string>) => Promise<Record<string, string>> };

describe('the launcher starting a Redis that does not answer', () => {
  let port: number;
  let redis: Redis | undefined;

  afterAll(async () => {
    await redis?.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
    redis?.disconnect();
  });

  it('given REDIS_URL on a free port, then it starts Redis on that port with its files in .dev/redis', async () => {
    port = await freePort();
    const env = await ensureInfrastructure(root, { DATABASE_URL: testInfra.postgresAdminUrl, REDIS_URL: `redis://127.0.0.1:${port}` });

    expect(env.REDIS_URL).toBe(`redis://127.0.0.1:${port}`);
    redis = new Redis(env.REDIS_URL);
    expect(await redis.ping()).toBe('PONG');
    expect(await redis.config('GET', 'dir')).toEqual(['dir', join(root, '.dev', 'redis')]);
    expect(await redis.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
  });
});
