import type { DashboardPrincipal } from '@pp/contracts';
import { type DashboardPermission, mayPerform } from '../../src/auth/dashboard-permissions.policy';

/**
 * Whether the signed-in user's role may do it, by the server's own table (dashboard-permissions.policy.ts): a page
 * hides what the server would refuse (403), never guesses its own list of roles.
 */
export const may = (user: DashboardPrincipal, permission: DashboardPermission): boolean => mayPerform(user.role, permission);
