import { createHash } from 'node:crypto';
import type Redis from 'ioredis';

/**
 * A Lua script sent by its SHA-1 (EVALSHA): Redis runs its cached copy
 * instead of receiving and hashing the text on every call; the text goes
 * only when Redis does not have it yet (after a restart or a SCRIPT FLUSH).
 */
export class LuaScript {
  /** What Redis caches the script under. */
  readonly sha: string;

  constructor(private readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
