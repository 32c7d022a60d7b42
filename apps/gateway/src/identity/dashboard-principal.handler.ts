import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DashboardPrincipalQuery, type DashboardSessionPrincipal, DomainError, ErrorCode } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { DataSource } from 'typeorm';
import { adminPrincipal, userPrincipal } from './dashboard-principal.view';
import { DashboardUserRepository } from './dashboard-user.repository';
import { ACCOUNT_NOT_FOUND } from './password-credentials';
import { PlatformAdminRepository } from './platform-admin.repository';

export const USER_NOT_FOUND = ACCOUNT_NOT_FOUND['gateway.dashboard_users'];

/**
 * Who a signed-in dashboard user is now, as a sign-in would answer it: the
 * dashboard re-reads a session's principal once it is older than its recheck
 * bound, so a changed role or a removal reaches sessions the dashboard did
 * not end, and a session holding an older credential version than the
 * answer's (a password changed since it was confirmed) ends. Removed users'
 * rows are skipped by the repository (NOT_FOUND).
 */
@Controller()
export class DashboardPrincipalHandler {
  private readonly users: DashboardUserRepository;
  private readonly admins: PlatformAdminRepository;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.users = new DashboardUserRepository(dataSource);
    this.admins = new PlatformAdminRepository(dataSource);
  }

  @Handles('identity.dashboard-principal.v1')
  async current(@Payload() query: DashboardPrincipalQuery): Promise<DashboardSessionPrincipal> {
    // Both tables at once (ids never collide: one generator), so a recheck costs one round trip of the database.
    const [admin, user] = await Promise.all([this.admins.findById(query.user_id), this.users.findById(query.user_id)]);
    if (admin) return adminPrincipal(admin);
    if (user) return userPrincipal(user);
    throw new DomainError(ErrorCode.NotFound, USER_NOT_FOUND);
  }
}
