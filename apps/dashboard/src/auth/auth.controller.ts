import { Body, Controller, ForbiddenException, Get, HttpCode, Inject, Post, Req, Res, UnauthorizedException } from '@nestjs/common';
import { DashboardLoginQuery, type DashboardPrincipal, DomainError, ErrorCode } from '@pp/contracts';
import { IsString, Length, MaxLength } from 'class-validator';
import { BusClient, CONFIG } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { AuditTrail } from '../audit/audit-trail';
import { Audited, changeCommitted } from '../audit/audited.interceptor';
import type { DashboardConfig } from '../dashboard.config';
import { parseInput } from '../http/parse-input';
import type { SignedInRequest } from './access.guard';
import { attemptedEmail } from './attempted-email';
import { LoginLimiter, TOO_MANY_ATTEMPTS } from './login-limiter';
import { OwnSessionRoute, SignedInRoute, SignedOutRoute } from './route-access';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie';
import { type DashboardSession, SessionStore } from './session.store';

export const INVALID_SIGN_IN = 'Invalid email or password';

/** Body of POST /api/auth/login, POST /api/auth/password (the new session's) and GET /api/auth/session. */
export interface SignedInView {
  user: DashboardPrincipal;
  csrf_token: string;
}

class ChangePasswordBody {
  @IsString({ message: 'current_password must be a string' })
  @MaxLength(256)
  current_password!: string;

  @IsString({ message: 'new_password must be a string' })
  @Length(12, 256, { message: 'new_password must be 12 to 256 characters' })
  new_password!: string;
}

/** The credential version stays on the server: the browser gets who it is, nothing about the password. */
const signedInView = (session: DashboardSession): SignedInView => {
  const { credential_version: _version, ...user } = session.principal;
  return { user, csrf_token: session.csrf_token };
};

/** Sign-in, the current session and sign-out (docs/ARCHITECTURE.md "Dashboard"). */
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly bus: BusClient,
    private readonly sessions: SessionStore,
    private readonly limiter: LoginLimiter,
    private readonly audit: AuditTrail,
    @Inject(CONFIG) private readonly config: DashboardConfig,
  ) {}

  @Post('login')
  @HttpCode(200)
  @SignedOutRoute()
  async login(@Body() body: unknown, @Req() request: SignedInRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignedInView | void> {
    const credentials = parseInput(DashboardLoginQuery, body);
    const waitSeconds = await this.limiter.attempt(credentials.email, request.ip);
    if (waitSeconds !== undefined) {
      await reply.code(429).header('Retry-After', String(waitSeconds)).send({ error: TOO_MANY_ATTEMPTS });
      return;
    }
    // Taken before asking: a role changed while the answer is on its way is re-read within the recheck bound of this time.
    const readAt = Date.now();
    const principal = await this.bus.request('identity.dashboard-login.v1', credentials).catch(async (error: unknown) => {
      if (!(error instanceof DomainError && error.code === ErrorCode.Unauthorized)) throw error;
      // Who tried is only the e-mail typed, if it looks like one (never the password); rate-limited attempts are not recorded, so a flood cannot fill the trail.
      const actor = { id: null, email: attemptedEmail(credentials.email), role: null };
      await this.audit.record(request, reply, actor, { action: 'auth.sign_in', target_id: null, outcome: 'failure' });
      throw new UnauthorizedException(INVALID_SIGN_IN);
    });
    await this.limiter.succeeded(credentials.email, request.ip);
    await this.audit.record(request, reply, principal, { action: 'auth.sign_in', target_id: principal.id });
    // The browser's previous session, if its cookie still names one, ends as a sign-out ends it: the new cookie
    // replaces the old one in this browser, and the old id must not stay valid in Redis until its idle timeout.
    await this.endHeldSession(request);
    const { id, session } = await this.sessions.create(principal, readAt);
    setSessionCookie(reply, this.config.DASHBOARD_SECURE_COOKIE, id);
    reply.header('Cache-Control', 'no-store');
    return signedInView(session);
  }

  @Get('session')
  @SignedInRoute()
  session(@Req() request: SignedInRequest, @Res({ passthrough: true }) reply: FastifyReply): SignedInView {
    reply.header('Cache-Control', 'no-store');
    return signedInView(request.dashboard!.session);
  }

  /**
   * 200 with a new session, answered as a sign-in answers it; 403 'Current password is wrong' (not 401: the session
   * itself is fine); 429 past the sign-in limits, which guesses of the current password count against too (a stolen
   * session must not be a way to guess it). Every session of the user ends, this one too: a stolen cookie or CSRF
   * token is worth nothing once its victim has changed the password, so this browser goes on with a new id and token.
   * Ending them here is the quick way; the guarantee is the credential version, which the change raises: the new
   * session takes the new one, every other (one the ending missed, or a sign-in with the old password stored after
   * it) holds an older one and ends at its next recheck (PrincipalRecheck), within DASHBOARD_PRINCIPAL_RECHECK_SECONDS.
   */
  @Post('password')
  @HttpCode(200)
  @SignedInRoute()
  @Audited('auth.password_changed', (_result: unknown, request) => ({ target_id: request.dashboard!.session.principal.id, livemode: null }))
  async changePassword(@Body() body: unknown, @Req() request: SignedInRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignedInView | void> {
    const input = parseInput(ChangePasswordBody, body);
    const { session } = request.dashboard!;
    const { principal } = session;
    const waitSeconds = await this.limiter.attempt(principal.email, request.ip);
    if (waitSeconds !== undefined) {
      await reply.code(429).header('Retry-After', String(waitSeconds)).send({ error: TOO_MANY_ATTEMPTS });
      return;
    }
    const changed = await this.bus.request('identity.dashboard-password.v1', { user_id: principal.id, ...input }).catch(async (error: unknown) => {
      if (!(error instanceof DomainError && error.code === ErrorCode.Unauthorized)) throw error;
      // A wrong current password is recorded as a failed sign-in is: whoever holds a stolen session and guesses shows in the trail.
      await this.audit.record(request, reply, principal, { action: 'auth.password_changed', target_id: principal.id, livemode: null, outcome: 'failure' });
      throw new ForbiddenException(error.message);
    });
    changeCommitted(request, undefined);
    // Every session first, this one included: once the password has changed, that matters most.
    await this.sessions.endAllOf(principal.id);
    // A new session as a sign-in opens one, with the new credential version; its role is as confirmed when the old one last was.
    const renewed = await this.sessions.create({ ...principal, credential_version: changed.credential_version }, session.checked_at);
    setSessionCookie(reply, this.config.DASHBOARD_SECURE_COOKIE, renewed.id);
    reply.header('Cache-Control', 'no-store');
    await this.limiter.succeeded(principal.email, request.ip);
    return signedInView(renewed.session);
  }

  @Post('logout')
  @HttpCode(204)
  @OwnSessionRoute()
  async logout(@Req() request: SignedInRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.end(request.dashboard!.sessionId);
    clearSessionCookie(reply, this.config.DASHBOARD_SECURE_COOKIE);
  }

  /**
   * Ends the session the request's cookie names, if any (sign-in is a signed-out route: the guard read no session).
   * Only once the new sign-in succeeded: a wrong password, a refused or rate-limited attempt leaves it as it was.
   */
  private async endHeldSession(request: SignedInRequest): Promise<void> {
    const held = readSessionCookie(request, this.config.DASHBOARD_SECURE_COOKIE);
    if (held) await this.sessions.end(held);
  }
}
