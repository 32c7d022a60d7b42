import { DashboardUserRepository } from './dashboard-user.repository';
import { PlatformAdminRepository } from './platform-admin.repository';
import type { Queryable } from './queryable';

export type AccountKind = 'dashboard_user' | 'platform_admin';

/**
 * Whether an account of the other kind holds `email`, asked inside the creation's transaction under a lock that
 * every creation of either kind takes first. One e-mail names one account across merchants' dashboard users and
 * platform admins (sign-in looks admins up first: an owner sharing an admin's e-mail could never sign in), but each
 * table's unique index covers its own rows only. The lock conflicts with itself, so of two creations with one e-mail
 * (an owner and an admin at the same moment) the second looks after the first has committed, and is refused.
 *
 * The lock is on platform_admins, which the gateway role may update (a SHARE ROW EXCLUSIVE lock asks for that); it
 * also holds back an admin's password change or removal for the creation's few milliseconds, both rare.
 */
export async function isEmailTakenByOtherKind(tx: Queryable, kind: AccountKind, email: string): Promise<boolean> {
  await tx.query(`LOCK TABLE gateway.platform_admins IN SHARE ROW EXCLUSIVE MODE`);
  const other = kind === 'dashboard_user' ? new PlatformAdminRepository(tx) : new DashboardUserRepository(tx);
  return (await other.findByEmail(email)) !== undefined;
}
