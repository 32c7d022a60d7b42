import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DashboardSessionPrincipal } from '@pp/contracts';
import { randomToken } from '@pp/kernel';
import { CONFIG, REDIS, redisUnavailable } from '@pp/platform';
import type Redis from 'ioredis';
import type { DashboardConfig } from '../dashboard.config';

/** A signed-in browser: who it is and the CSRF token its page sends back. */
export interface DashboardSession {
  /** With the credential version it was read with: the recheck ends the session once the gateway's is newer (a password change). */
  principal: DashboardSessionPrincipal;
  /** When the gateway last confirmed `principal` (ms): a request re-reads it once it is older than the recheck bound (principal-recheck.policy.ts). */
  checked_at: number;
  csrf_token: string;
  created_at: number;
}

/** A session as an earlier release may have stored it. */
type StoredSession = Omit<DashboardSession, 'checked_at' | 'principal'> & Partial<Pick<DashboardSession, 'checked_at'>> & { principal: Omit<DashboardSessionPrincipal, 'credential_version'> & { credential_version?: number } };

/** Sessions last at most this long, however active (docs/ARCHITECTURE.md "Dashboard"). */
const ABSOLUTE_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** A Redis that fails or does not answer: the request is answered 503, not signed out or failed as an internal error. */
const unavailable = redisUnavailable('session store');

/** Ends every session listed under KEYS[1], and the list. */
const END_ALL_SCRIPT = `
local ended = 0
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('DEL', key)
  ended = ended + 1
end
redis.call('DEL', KEYS[1])
return ended`;

/**
 * Server-side sessions in Redis. The cookie holds a random id; Redis holds
 * only its SHA-256, so a Redis dump signs nobody in. Each use pushes the
 * expiry forward (inactivity timeout); sign-out deletes the record.
 * Each user's sessions are also listed under the user's id, so removing a
 * user, changing their role or their password ends all of them at once
 * (endAllOf); what that misses (a failed ending, a racing sign-in) the access
 * guard's recheck of each session's principal and credential version catches
 * within its bound (PrincipalRecheck).
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

  /** `checkedAt`: when the principal was read (before the sign-in's question was sent), not when the session is made. */
  async create(principal: DashboardSessionPrincipal, checkedAt: number, now = Date.now()): Promise<{ id: string; session: DashboardSession }> {
    const id = randomToken(32);
    const session: DashboardSession = { principal, checked_at: checkedAt, csrf_token: randomToken(32), created_at: now };
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
    // A session stored before checked_at was recorded counts as never confirmed: its next request re-reads the principal.
    // One stored before credential versions holds version 0, every account's until its first password change since.
    const stored = JSON.parse(raw) as StoredSession;
    const session: DashboardSession = { ...stored, principal: { ...stored.principal, credential_version: stored.principal.credential_version ?? 0 }, checked_at: stored.checked_at ?? 0 };
    if (now - session.created_at > ABSOLUTE_LIFETIME_MS) {
      await this.end(id);
      return undefined;
    }
    return session;
  }

  /**
   * Stores a session's re-read principal, its expiry left as it is. A session ended meanwhile (sign-out, endAllOf)
   * stays ended (XX: only an existing key is written).
   */
  async update(id: string, session: DashboardSession): Promise<void> {
    await this.redis.set(this.key(id), JSON.stringify(session), 'KEEPTTL', 'XX').catch(unavailable);
  }

  async end(id: string): Promise<void> {
    await this.redis.del(this.key(id)).catch(unavailable);
  }

  /**
   * Ends every session of a user (removed, given another role or a new password: the next request answers 401 and
   * they sign in again). A password change then opens the changing browser a new session: none survives the change.
   */
  async endAllOf(userId: string): Promise<void> {
    // One script, so a session created meanwhile is either ended with the others or listed after them.
    await this.redis.eval(END_ALL_SCRIPT, 1, this.userKey(userId)).catch(unavailable);
  }

  private key(id: string): string {
    return this.prefix + createHash('sha256').update(id).digest('base64url');
  }

  private userKey(userId: string): string {
    return `${this.prefix}user:${userId}`;
  }
}
