import { type DashboardPrincipalRole, withUrlOrigins } from '@pp/contracts';
import { mayPerform } from '../auth/dashboard-permissions.policy';

/**
 * The views of webhook endpoints and deliveries as `role` may read them: whole for roles that manage the Developers
 * page (they set the URLs, and may change them), the URL's origin only for the rest (a viewer sees where events go,
 * not a token the URL may hold).
 */
export function webhookUrlsFor<T extends { url: string }>(role: DashboardPrincipalRole, views: T[]): T[] {
  return mayPerform(role, 'developers.manage') ? views : withUrlOrigins(views);
}
