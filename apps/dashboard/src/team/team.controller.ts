import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { type AddedTeamUserView, type DashboardPrincipal, type IdempotencyToken, SHOWN_ONCE_CREATION_TIMEOUT_MS, type TeamUserView } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { Audited, changeCommitted, targetParam } from '../audit/audited.interceptor';
import type { SignedInRequest } from '../auth/access.guard';
import { Permit } from '../auth/route-access';
import { SessionStore } from '../auth/session.store';
import { Principal } from '../auth/signed-in';
import { Idempotency } from '../http/idempotency-key';
import { notFound } from '../http/not-found';
import { parseInput } from '../http/parse-input';
import { TeamAdditionsLimiter, TOO_MANY_ADDITIONS } from './team-additions.limiter';
import { AddTeamUserBody, SetTeamRoleBody } from './team.bodies';

const USER_ID = /^usr_[a-z0-9]{1,64}$/;

function userId(id: string): string {
  if (!USER_ID.test(id)) throw notFound('Dashboard user');
  return id;
}

/**
 * The Team page (owners only): the signed-in owner's merchant's users. The
 * gateway owns users and enforces the rules (nobody changes themself, one
 * owner stays, another merchant's user is not found); once it has removed a
 * user or changed a role, that user's sessions end here, so their next
 * request is refused (401) and a new sign-in carries the new role. A session
 * this misses (Redis failed here after the change, a sign-in racing it) is
 * caught by the access guard's recheck within DASHBOARD_PRINCIPAL_RECHECK_SECONDS.
 */
@Controller('api/team/users')
export class TeamController {
  constructor(
    private readonly bus: BusClient,
    private readonly sessions: SessionStore,
    private readonly additions: TeamAdditionsLimiter,
  ) {}

  @Get()
  @Permit('team.manage')
  list(@Principal() owner: DashboardPrincipal): Promise<{ users: TeamUserView[] }> {
    return this.bus.request('identity.team.list.v1', { merchant_id: owner.merchant_id! });
  }

  /**
   * 201 with the generated password, shown once; 429 past the merchant's additions an hour (TeamAdditionsLimiter). The
   * Idempotency-Key is recorded with the user, so a retry whose answer was lost adds nobody: 409 naming the user.
   */
  @Post()
  @HttpCode(201)
  @Permit('team.manage')
  @Audited('team.user_added', (user: AddedTeamUserView) => ({ target_id: user.id, livemode: null, detail: `${user.email} (${user.role})` }))
  async add(
    @Body() body: unknown,
    @Principal() owner: DashboardPrincipal,
    @Idempotency() idempotency: IdempotencyToken,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AddedTeamUserView | undefined> {
    const input = parseInput(AddTeamUserBody, body);
    const waitSeconds = await this.additions.spend(owner.merchant_id!);
    if (waitSeconds !== undefined) {
      await reply.code(429).header('Retry-After', String(waitSeconds)).send({ error: TOO_MANY_ADDITIONS });
      return undefined;
    }
    return this.bus.request('identity.team.add.v1', { ...input, merchant_id: owner.merchant_id!, acting_user_id: owner.id, idempotency }, { timeoutMs: SHOWN_ONCE_CREATION_TIMEOUT_MS });
  }

  @Patch(':id')
  @Permit('team.manage')
  @Audited('team.role_changed', (user: TeamUserView) => ({ target_id: user.id, livemode: null, detail: `${user.email} (${user.role})` }))
  async setRole(@Param('id') id: string, @Body() body: unknown, @Principal() owner: DashboardPrincipal, @Req() request: SignedInRequest): Promise<TeamUserView> {
    const { role } = parseInput(SetTeamRoleBody, body);
    const user = await this.bus.request('identity.team.set-role.v1', { merchant_id: owner.merchant_id!, user_id: userId(id), acting_user_id: owner.id, role });
    changeCommitted(request, user);
    await this.sessions.endAllOf(user.id);
    return user;
  }

  @Delete(':id')
  @Permit('team.manage')
  @Audited('team.user_removed', (result: unknown, request) => ({ ...targetParam(result, request), livemode: null }))
  async remove(@Param('id') id: string, @Principal() owner: DashboardPrincipal, @Req() request: SignedInRequest): Promise<{ id: string; removed: true }> {
    const removed = await this.bus.request('identity.team.remove.v1', { merchant_id: owner.merchant_id!, user_id: userId(id), acting_user_id: owner.id });
    changeCommitted(request, removed);
    await this.sessions.endAllOf(removed.id);
    return removed;
  }
}
