import { DashboardUserRepository } from './dashboard-user.repository';
import { PlatformAdminRepository } from './platform-admin.repository';
import type { Queryable } from './queryable';

export type AccountKind = 'dashboard_user' | 'platform_admin';

/**
 * One e-mail names one account across merchants' dashboard users and platform admins (sign-in looks admins up
 * first: an owner sharing an admin's e-mail could never sign in), but each table's unique index covers its own rows
 * only. Every creation of either kind takes this lock in its transaction, then asks isEmailTakenByOtherKind:
 * the lock conflicts with itself, so of two creations with one e-mail (an owner and an admin at the same moment) the
 * second looks after the first has committed, and is refused. Inside a transaction only (Postgres refuses it
 * outside one), and as the last lock the creation takes (a team's before it): every creation of every merchant
 * waits on it, so it must never be held while waiting for another.
 *
 * The lock is on platform_admins, which the gateway role may update (a SHARE ROW EXCLUSIVE lock asks for that); it
 * also holds back an admin's password change or removal for the creation's few milliseconds, both rare.
 */
export async function lockAccountEmails(tx: Queryable): Promise<void> {
  await tx.query(`LOCK TABLE gateway.platform_admins IN SHARE ROW EXCLUSIVE MODE`);
}

/** Whether an account of the other kind holds `email` (under lockAccountEmails, for an answer that holds until commit). */
export async function isEmailTakenByOtherKind(tx: Queryable, kind: AccountKind, email: string): Promise<boolean> {
  const other = kind === 'dashboard_user' ? new PlatformAdminRepository(tx) : new DashboardUserRepository(tx);
  return (await other.findByEmail(email)) !== undefined;
}
