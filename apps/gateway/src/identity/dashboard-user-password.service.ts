import { type DashboardRole, DomainError, ErrorCode } from '@pp/contracts';
import type { DataSource } from 'typeorm';
import { DashboardUserRepository } from './dashboard-user.repository';
import { chosenOrGeneratedPassword } from './password';

export const DASHBOARD_USER_NOT_FOUND = 'Dashboard user not found';

/** A merchant's dashboard user whose password an operator set, with the generated password (shown once) when there is one. */
export interface ResetDashboardUserView {
  id: string;
  merchant_id: string;
  email: string;
  role: DashboardRole;
  password?: string;
}

/**
 * Sets a merchant's dashboard user's password without the old one: an owner who forgot it, or one whose generated
 * password was lost with its creation's answer, would otherwise be locked out for good (nobody else may add a user, and
 * an owner cannot be made again under the same e-mail). The credential version moves on with it, so every session
 * signed in with the old password ends at its next recheck. Another merchant's user, or a removed one, is not found.
 */
export async function resetDashboardUserPassword(dataSource: DataSource, merchantId: string, userId: string, password: string | undefined): Promise<ResetDashboardUserView> {
  const users = new DashboardUserRepository(dataSource);
  const user = await users.findById(userId);
  if (!user || user.merchant_id !== merchantId) throw new DomainError(ErrorCode.NotFound, DASHBOARD_USER_NOT_FOUND);
  const { hash, shown } = await chosenOrGeneratedPassword(password);
  await users.setPassword(user.id, hash);
  return { id: user.id, merchant_id: user.merchant_id, email: user.email, role: user.role, ...shown };
}
