import { Inject, Injectable } from '@nestjs/common';
import { type DashboardSessionPrincipal, DomainError, ErrorCode } from '@pp/contracts';
import { BusClient, CONFIG, JsonLogger } from '@pp/platform';
import type { DashboardConfig } from '../dashboard.config';
import { afterRecheck, recheckDue } from './principal-recheck.policy';
import { type DashboardSession, SessionStore } from './session.store';

/**
 * Keeps a session's principal no older than DASHBOARD_PRINCIPAL_RECHECK_SECONDS
 * before a request acts on it: within the bound the session is used as held
 * (no bus call); past it the gateway is asked who the user is now
 * (`identity.dashboard-principal.v1`), and the session ends (user removed,
 * or password changed since: a newer credential version), takes the current
 * principal (role changed) or is marked confirmed.
 */
@Injectable()
export class PrincipalRecheck {
  private readonly boundMs: number;

  constructor(
    private readonly bus: BusClient,
    private readonly sessions: SessionStore,
    private readonly logger: JsonLogger,
    @Inject(CONFIG) config: DashboardConfig,
  ) {
    this.boundMs = config.DASHBOARD_PRINCIPAL_RECHECK_SECONDS * 1000;
  }

  /** The session with a principal confirmed within the bound; undefined once its user is gone or has a new password (the session is ended). */
  async confirmed(sessionId: string, session: DashboardSession, now = Date.now()): Promise<DashboardSession | undefined> {
    if (!recheckDue(session.checked_at, now, this.boundMs)) return session;
    const recheck = afterRecheck(session.principal, await this.currentPrincipal(session.principal.id), now);
    if (recheck.outcome !== 'confirmed') this.logger.info('signed-in user changed since their session was confirmed', { user_id: session.principal.id, outcome: recheck.outcome });
    if (recheck.outcome === 'ended') {
      await this.sessions.end(sessionId);
      return undefined;
    }
    const rechecked: DashboardSession = { ...session, principal: recheck.principal, checked_at: recheck.checked_at };
    await this.sessions.update(sessionId, rechecked);
    return rechecked;
  }

  /** Undefined for a removed user; any other failure answers 503, as a failing Redis does: a stale principal is never acted on unconfirmed. */
  private currentPrincipal(userId: string): Promise<DashboardSessionPrincipal | undefined> {
    return this.bus.request('identity.dashboard-principal.v1', { user_id: userId }).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === ErrorCode.NotFound) return undefined;
      throw new DomainError(ErrorCode.ServiceUnavailable, `signed-in user could not be confirmed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}
