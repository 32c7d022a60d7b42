import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { LuaScript } from './lua-script';

describe('LuaScript', () => {
  let redis: Redis;
  const key = `lua-script-spec:${randomUUID()}`;
  const setIfAbsent = new LuaScript(`if redis.call('EXISTS', KEYS[1]) == 0 then return redis.call('SET', KEYS[1], ARGV[1]) end return false`);

  beforeAll(() => {
    // The launcher's Redis (libs/platform cannot import @pp/testing, which reads the same variable).
    redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    await redis.del(key);
    await redis.quit();
  });

  it('given a script Redis has never seen, then it runs it (sending the text once) and afterwards by its SHA alone', async () => {
    // Other clients' scripts are lost too; ioredis, BullMQ and LuaScript all send the text again on NOSCRIPT.
    await redis.script('FLUSH');
    expect(await setIfAbsent.run(redis, [key], ['first'])).toBe('OK');
    const [cached] = (await redis.script('EXISTS', setIfAbsent.sha)) as number[];
    expect(cached).toBe(1);
    expect(await setIfAbsent.run(redis, [key], ['second'])).toBeNull();
    expect(await redis.get(key)).toBe('first');
  });
});

