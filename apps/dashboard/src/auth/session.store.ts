import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DashboardPrincipal } from '@pp/contracts';
import { randomToken } from '@pp/kernel';
import { CONFIG, REDIS, redisUnavailable } from '@pp/platform';
import type Redis from 'ioredis';
import type { DashboardConfig } from '../dashboard.config';

/** A signed-in browser: who it is and the CSRF token its page sends back. */
export interface DashboardSession {
  principal: DashboardPrincipal;
  csrf_token: string;
  created_at: number;
}

/** Sessions last at most this long, however active (docs/ARCHITECTURE.md "Dashboard"). */
const ABSOLUTE_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** A Redis that fails or does not answer: the request is answered 503, not signed out or failed as an internal error. */
const unavailable = redisUnavailable('session store');

/** Ends the sessions listed under KEYS[1], all but ARGV[1] (a session's key, or '' for none). */
const END_ALL_SCRIPT = `
local ended = 0
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if key ~= ARGV[1] then
    redis.call('DEL', key)
    redis.call('SREM', KEYS[1], key)
    ended = ended + 1
  end
end
if ARGV[1] == '' then redis.call('DEL', KEYS[1]) end
return ended`;

/**
 * Server-side sessions in Redis. The cookie holds a random id; Redis holds
 * only its SHA-256, so a Redis dump signs nobody in. Each use pushes the
 * expiry forward (inactivity timeout); sign-out deletes the record.
 * Each user's sessions are also listed under the user's id, so removing a
 * user or changing their role ends all of them at once (endAllOf).
 */
@Injectable()
export class SessionStore {
  private readonly idleSeconds: number;
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) config: DashboardConfig,
  ) {
    this.idleSeconds = config.DASHBOARD_IDLE_TIMEOUT_SECONDS;
    this.prefix = `${[config.PP_NAMESPACE, 'dashboard', 'session'].filter(Boolean).join(':')}:`;
  }

  async create(principal: DashboardPrincipal, now = Date.now()): Promise<{ id: string; session: DashboardSession }> {
    const id = randomToken(32);
    const session: DashboardSession = { principal, csrf_token: randomToken(32), created_at: now };
    const key = this.key(id);
    const userKey = this.userKey(principal.id);
    // The user's list outlives every session in it (absolute lifetime); stale names in it are harmless.
    await this.redis.multi().set(key, JSON.stringify(session), 'EX', this.idleSeconds).sadd(userKey, key).pexpire(userKey, ABSOLUTE_LIFETIME_MS).exec().catch(unavailable);
    return { id, session };
  }

  /** The session, its idle timer restarted; undefined when unknown, idle too long or past its absolute lifetime. */
  async touch(id: string, now = Date.now()): Promise<DashboardSession | undefined> {
    const raw = await this.redis.getex(this.key(id), 'EX', this.idleSeconds).catch(unavailable);
    if (!raw) return undefined;
    const session = JSON.parse(raw) as DashboardSession;
    if (now - session.created_at > ABSOLUTE_LIFETIME_MS) {
      await this.end(id);
      return undefined;
    }
    return session;
  }

  async end(id: string): Promise<void> {
    await this.redis.del(this.key(id)).catch(unavailable);
  }

  /**
   * Ends every session of a user (removed, or given another role: the next request answers 401 and they sign in
   * again), but `keep` when given (the browser that changed the password stays signed in).
   */
  async endAllOf(userId: string, keep?: string): Promise<void> {
    // One script, so a session created meanwhile is either ended with the others or listed after them.
    await this.redis.eval(END_ALL_SCRIPT, 1, this.userKey(userId), keep === undefined ? '' : this.key(keep)).catch(unavailable);
  }

  private key(id: string): string {
    return this.prefix + createHash('sha256').update(id).digest('base64url');
  }

  private userKey(userId: string): string {
    return `${this.prefix}user:${userId}`;
  }
}
