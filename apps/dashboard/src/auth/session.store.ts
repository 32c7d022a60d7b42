import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DashboardPrincipal } from '@pp/contracts';
import { randomToken } from '@pp/kernel';
import { CONFIG, REDIS } from '@pp/platform';
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

/**
 * Server-side sessions in Redis. The cookie holds a random id; Redis holds
 * only its SHA-256, so a Redis dump signs nobody in. Each use pushes the
 * expiry forward (inactivity timeout); sign-out deletes the record.
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
    await this.redis.set(this.key(id), JSON.stringify(session), 'EX', this.idleSeconds);
    return { id, session };
  }

  /** The session, its idle timer restarted; undefined when unknown, idle too long or past its absolute lifetime. */
  async touch(id: string, now = Date.now()): Promise<DashboardSession | undefined> {
    const raw = await this.redis.getex(this.key(id), 'EX', this.idleSeconds);
    if (!raw) return undefined;
    const session = JSON.parse(raw) as DashboardSession;
    if (now - session.created_at > ABSOLUTE_LIFETIME_MS) {
      await this.end(id);
      return undefined;
    }
    return session;
  }

  async end(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }

  private key(id: string): string {
    return this.prefix + createHash('sha256').update(id).digest('base64url');
  }
}
