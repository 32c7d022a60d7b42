import { type DashboardPrincipal, PLATFORM_ADMIN_ROLE } from '@pp/contracts';
import type { DashboardUserRecord } from './dashboard-user.repository';
import type { PlatformAdminRecord } from './platform-admin.repository';

/** Who a platform admin is to the dashboard: no merchant. */
export const adminPrincipal = (admin: PlatformAdminRecord): DashboardPrincipal => ({ id: admin.id, email: admin.email, role: PLATFORM_ADMIN_ROLE });

/** Who a merchant's dashboard user is to the dashboard. */
export const userPrincipal = (user: DashboardUserRecord): DashboardPrincipal => ({ id: user.id, email: user.email, role: user.role, merchant_id: user.merchant_id });
