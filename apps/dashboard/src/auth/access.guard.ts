import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, ForbiddenException, HttpException, HttpStatus, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CONFIG } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardConfig } from '../dashboard.config';
import { TOO_MANY_REQUESTS, UserRequestBudget } from '../http/user-request.budget';
import { mayPerform } from './dashboard-permissions.policy';
import { fromOwnOrigin } from './own-origin.policy';
import { PrincipalRecheck } from './principal-recheck';
import { ROUTE_ACCESS, type RouteAccess } from './route-access';
import { readSessionCookie } from './session-cookie';
import { type DashboardSession, SessionStore } from './session.store';

export const CROSS_SITE_REFUSED = 'Cross-site request refused';
export const CSRF_REFUSED = 'Missing or wrong CSRF token';
export const SIGN_IN_REQUIRED = 'Sign in first';
export const ROLE_REFUSED = 'Your role does not allow this action';

export interface SignedInRequest extends FastifyRequest {
  dashboard?: { sessionId: string; session: DashboardSession };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every /api route declares who may call it (route-access.ts); a route that
 * does not is refused, however its path was spelled. State-changing requests must come from the
 * dashboard's own origin (Origin and Sec-Fetch-Site) and, once signed in,
 * carry the session's X-CSRF-Token. Roles are checked here, on the server,
 * against a principal confirmed by the gateway within the recheck bound
 * (PrincipalRecheck), so a changed role or a removal reaches every session.
 * Every signed-in request but sign-out spends its user's budget (UserRequestBudget).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionStore,
    private readonly principals: PrincipalRecheck,
    private readonly budget: UserRequestBudget,
    @Inject(CONFIG) private readonly config: DashboardConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SignedInRequest>();
    const access = this.reflector.get<RouteAccess | undefined>(ROUTE_ACCESS, context.getHandler());
    if (!access) {
      if (isApiRoute(request)) throw new ForbiddenException('Route has no access rule');
      return true;
    }
    const changesState = !SAFE_METHODS.has(request.method);
    if (changesState && !this.fromOwnOrigin(request)) throw new ForbiddenException(CROSS_SITE_REFUSED);
    if (access.kind === 'signed-out') return true;
    const sessionId = readSessionCookie(request, this.config.DASHBOARD_SECURE_COOKIE);
    const held = sessionId ? await this.sessions.touch(sessionId) : undefined;
    if (!sessionId || !held) throw new UnauthorizedException(SIGN_IN_REQUIRED);
    if (changesState && !sameToken(request.headers['x-csrf-token'], held.csrf_token)) throw new ForbiddenException(CSRF_REFUSED);
    // Sign-out acts on its own session alone: never rechecked, never refused for the user's spent budget.
    const ownSessionOnly = access.kind === 'signed-in' && access.ownSessionOnly;
    const session = ownSessionOnly ? held : await this.principals.confirmed(sessionId, held);
    if (!session) throw new UnauthorizedException(SIGN_IN_REQUIRED);
    const waitSeconds = ownSessionOnly ? undefined : await this.budget.spend(session.principal.id);
    if (waitSeconds !== undefined) {
      context.switchToHttp().getResponse<FastifyReply>().header('Retry-After', String(waitSeconds));
      throw new HttpException(TOO_MANY_REQUESTS, HttpStatus.TOO_MANY_REQUESTS);
    }
    if (access.kind === 'permission' && !mayPerform(session.principal.role, access.permission)) throw new ForbiddenException(ROLE_REFUSED);
    request.dashboard = { sessionId, session };
    return true;
  }

  private fromOwnOrigin(request: FastifyRequest): boolean {
    const { origin, host, 'sec-fetch-site': secFetchSite } = request.headers;
    return fromOwnOrigin({ origin, host, secFetchSite }, this.config.DASHBOARD_SECURE_COOKIE);
  }
}

/**
 * Whether the route that matched is part of the API. Decided on the matched route's path, never on the raw URL: the
 * router decodes percent-escapes, so `/%61pi/payments` reaches the API too. A request with no matched route known
 * counts as the API (refused rather than let through).
 */
function isApiRoute(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route === undefined || route === '/api' || route.startsWith('/api/');
}

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
