import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { LuaScript } from './lua-script';

describe('LuaScript', () => {
  let redis: Redis;
  const key = `lua-script-spec:${randomUUID()}`;
  // A comment unique to this run gives the script a SHA Redis has never seen (no SCRIPT FLUSH: other clients share this Redis).
  const setIfAbsent = new LuaScript(`-- ${randomUUID()}\nif redis.call('EXISTS', KEYS[1]) == 0 then return redis.call('SET', KEYS[1], ARGV[1]) end return false`);

  beforeAll(() => {
    // The launcher's Redis (libs/platform cannot import @pp/testing, which reads the same variable).
    redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    await redis.del(key);
    await redis.quit();
  });

  it('given a script Redis has never seen, then it runs it (sending the text once) and afterwards by its SHA alone', async () => {
    expect(await redis.script('EXISTS', setIfAbsent.sha)).toEqual([0]);
    expect(await setIfAbsent.run(redis, [key], ['first'])).toBe('OK');
    expect(await redis.script('EXISTS', setIfAbsent.sha)).toEqual([1]);
    expect(await setIfAbsent.run(redis, [key], ['second'])).toBeNull();
    expect(await redis.get(key)).toBe('first');
  });
});
