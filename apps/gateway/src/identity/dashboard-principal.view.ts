import { type DashboardSessionPrincipal, PLATFORM_ADMIN_ROLE } from '@pp/contracts';
import type { DashboardUserRecord } from './dashboard-user.repository';
import type { PlatformAdminRecord } from './platform-admin.repository';

/** Who a platform admin is to the dashboard: no merchant. With the credential version the row was read with (from the same row as the hash a sign-in checked). */
export const adminPrincipal = (admin: PlatformAdminRecord): DashboardSessionPrincipal => ({
  id: admin.id,
  email: admin.email,
  role: PLATFORM_ADMIN_ROLE,
  credential_version: admin.credential_version,
});

/** Who a merchant's dashboard user is to the dashboard, with the credential version as above. */
export const userPrincipal = (user: DashboardUserRecord): DashboardSessionPrincipal => ({
  id: user.id,
  email: user.email,
  role: user.role,
  merchant_id: user.merchant_id,
  credential_version: user.credential_version,
});
