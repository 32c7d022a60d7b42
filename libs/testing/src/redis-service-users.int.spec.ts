import { randomUUID } from 'node:crypto';
import { bullWorkerConnection, queuePrefix } from '@pp/platform';
import { Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { testInfra } from './infra';
import { TestStack } from './test-stack';

/*
 * The Redis ACL users of docs/SECURITY.md ("Redis"), on a real Redis: the
 * test stack runs each service as its own user with the deployment's rules
 * (REDIS_USERS, REDIS_COMMAND_RULES), so what a user may not do is what a
 * service in compose or Kubernetes may not do.
 */
describe('Redis service users', () => {
  let stack: TestStack;
  let admin: Redis;
  let asSessions: Redis;

  beforeAll(async () => {
    admin = new Redis(testInfra.redisUrl);
    stack = await TestStack.start({ services: ['dashboard'], label: 'redis-users' });
    asSessions = new Redis((await stack.envFor('sessions')).REDIS_URL);
  });
  afterAll(async () => {
    asSessions?.disconnect();
    admin?.disconnect();
  });

  it('given a started service, then it is connected as its own user', async () => {
    const clients = String(await admin.call('CLIENT', 'LIST'));
    expect(clients).toContain(` user=${stack.namespace}-dashboard `);
    expect(clients).not.toMatch(new RegExp(`user=${stack.namespace}-(gateway|webhooks) `));
  });

  it('given the sessions user, then BullMQ runs its own queue', async () => {
    const url = (await stack.envFor('sessions')).REDIS_URL;
    const queue = new Queue('session-expiry', { connection: bullWorkerConnection(url), prefix: queuePrefix(stack.namespace) });
    let seen: (id: string) => void = () => undefined;
    const done = new Promise<string>((resolve) => (seen = resolve));
    const worker = new Worker('session-expiry', async (job) => seen(job.data.id), {
      connection: bullWorkerConnection(url),
      prefix: queuePrefix(stack.namespace),
    });
    const id = randomUUID();
    await queue.add('expire', { id }, { delay: 10 });
    expect(await done).toBe(id);
    await Promise.all([worker.close(), queue.close()]);
  });

  it("given the sessions user, then another service's keys are refused", async () => {
    await expect(asSessions.get(`${stack.namespace}:gateway:anything`)).rejects.toThrow(/NOPERM/);
    await expect(asSessions.get(`${stack.namespace}:dashboard:anything`)).rejects.toThrow(/NOPERM/);
    await expect(asSessions.get(`bull:session-expiry:other-deployment`)).rejects.toThrow(/NOPERM/);
    await expect(asSessions.set(`${stack.namespace}:bull:session-expiry:spec`, '1')).resolves.toBe('OK');
  });

  it('given any service user, then commands that reach beyond its keys or run the server are refused', async () => {
    const refused: string[][] = [
      ['SCAN', '0'],
      ['RANDOMKEY'],
      ['KEYS', '*'],
      ['SCRIPT', 'FLUSH'],
      ['SCRIPT', 'KILL'],
      ['FUNCTION', 'FLUSH'],
      ['FUNCTION', 'LIST'],
      ['FLUSHALL'],
      ['CONFIG', 'GET', 'maxmemory'],
      ['CLIENT', 'LIST'],
      ['ACL', 'LIST'],
      ['PUBLISH', 'any-channel', 'x'],
    ];
    for (const [command, ...args] of refused) {
      await expect(asSessions.call(command, ...args)).rejects.toThrow(/NOPERM/);
    }
    // BullMQ reads the version.
    expect(String(await asSessions.call('INFO', 'server'))).toMatch(/redis_version:/);
  });

  it('given the stack stopped, then its users are gone', async () => {
    // Deleting a user closes its connections: this client would reconnect and be refused.
    asSessions.disconnect();
    await stack.stop();
    const users = (await admin.call('ACL', 'USERS')) as string[];
    expect(users.filter((user) => user.startsWith(`${stack.namespace}-`))).toEqual([]);
  });
});
