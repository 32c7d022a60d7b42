import type { DashboardPrincipalRole } from '@pp/contracts';
import { mayPerform } from '../auth/dashboard-permissions.policy';

/**
 * A webhook URL's origin (scheme://host[:port]): its path and query are the merchant's and may carry a token.
 * What cannot be read as a URL shows as nothing rather than whole.
 */
export function webhookUrlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/**
 * The views of webhook endpoints and deliveries as `role` may read them: whole for roles that manage the Developers
 * page (they set the URLs, and may change them), the URL's origin only for the rest (a viewer sees where events go,
 * not a token the URL may hold).
 */
export function webhookUrlsFor<T extends { url: string }>(role: DashboardPrincipalRole, views: T[]): T[] {
  if (mayPerform(role, 'developers.manage')) return views;
  return views.map((view) => ({ ...view, url: webhookUrlOrigin(view.url) }));
}
