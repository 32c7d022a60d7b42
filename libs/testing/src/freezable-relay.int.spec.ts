import { randomUUID } from 'node:crypto';
import { bullQueueConnection, serviceRedis } from '@pp/platform';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { FreezableRelay } from './freezable-relay';
import { testInfra } from './infra';

const COMMAND_TIMEOUT_MS = 300;

/*
 * A service's Redis connection (serviceRedis) against a Redis that hangs:
 * the relay keeps the connection open and stops passing answers on, which no
 * socket error reveals. Each command has a deadline, so a caller is told in
 * time instead of waiting for as long as the connection lives.
 */
describe('serviceRedis against a Redis that stops answering (FreezableRelay)', () => {
  let relay: FreezableRelay;
  let redis: Redis;

  beforeAll(async () => {
    relay = await FreezableRelay.start(new URL(testInfra.redisUrl));
    redis = serviceRedis(relay.url, COMMAND_TIMEOUT_MS);
    await redis.connect();
  });
  afterAll(() => {
    redis?.disconnect();
    relay?.stop();
  });

  it('given Redis stops answering on an open connection, then a command fails at its deadline, and once Redis answers again so do the next commands, in order', async () => {
    const key = `freezable-relay-spec:${randomUUID()}`;
    expect(await redis.incr(key)).toBe(1);

    relay.freeze();
    const sent = Date.now();
    const error = await redis.incr(key).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    const waitedMs = Date.now() - sent;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('Command timed out');
    expect(waitedMs).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 20);
    expect(waitedMs).toBeLessThan(COMMAND_TIMEOUT_MS * 5);

    // Redis ran the command that timed out; its late answer is dropped, and the next command gets its own.
    relay.thaw();
    expect(await redis.incr(key)).toBe(3);
    await redis.del(key);
  });
});

describe('a BullMQ queue (bullQueueConnection) against a Redis that stops answering', () => {
  let relay: FreezableRelay;
  let queue: Queue;

  beforeAll(async () => {
    relay = await FreezableRelay.start(new URL(testInfra.redisUrl));
    queue = new Queue(`freezable-relay-spec-${randomUUID()}`, { connection: bullQueueConnection(relay.url, COMMAND_TIMEOUT_MS) });
    await queue.waitUntilReady();
  });
  afterAll(async () => {
    relay?.thaw();
    await queue?.obliterate({ force: true });
    await queue?.close();
    relay?.stop();
  });

  it('given Redis stops answering, then reading a job and adding one fail at the deadline, and once Redis answers again both work', async () => {
    relay.freeze();
    const sent = Date.now();
    const read = await queue.getJobState('some-job').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    const added = await queue.addBulk([{ name: 'attempt', data: {}, opts: { jobId: 'job-1' } }]).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    const waitedMs = Date.now() - sent;
    expect((read as Error).message).toBe('Command timed out');
    expect((added as Error).message).toBe('Command timed out');
    expect(waitedMs).toBeGreaterThanOrEqual(2 * COMMAND_TIMEOUT_MS - 40);
    expect(waitedMs).toBeLessThan(2 * COMMAND_TIMEOUT_MS * 5);

    relay.thaw();
    await queue.addBulk([{ name: 'attempt', data: {}, opts: { jobId: 'job-2' } }]);
    expect(await queue.getJobState('job-2')).toBe('waiting');
  });
});
