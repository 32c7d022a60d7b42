import type { DashboardPrincipal } from '@pp/contracts';
import type { Messages } from './i18n';
import { decodeSegment } from './path-segment.policy';
import { may } from './permissions';

/** A page of a list, a form or a queue: named by its path alone. */
type ListPage =
  | 'account'
  | 'home'
  | 'payments'
  | 'checkout-sessions'
  | 'developers'
  | 'team'
  | 'audit'
  | 'admin-refunds'
  | 'admin-review'
  | 'admin-merchants'
  | 'admin-audit'
  | 'admin-quarantine'
  | 'not-found';

/** The page a path names for a user: a list page, or a detail page with its record's id (decoded). */
export type PageRoute = { page: ListPage } | { page: 'payment' | 'checkout-session'; id: string };

const NOT_FOUND: PageRoute = { page: 'not-found' };

/** A platform admin's pages; `/` is their landing page, the refund queue. */
const ADMIN_PAGES = new Map<string, ListPage>([
  ['/', 'admin-refunds'],
  ['/admin/refunds', 'admin-refunds'],
  ['/admin/review', 'admin-review'],
  ['/admin/merchants', 'admin-merchants'],
  ['/admin/audit', 'admin-audit'],
  ['/admin/quarantine', 'admin-quarantine'],
]);

/** A merchant user's pages; `/` is Home, where they land. */
const MERCHANT_PAGES = new Map<string, ListPage>([
  ['/', 'home'],
  ['/home', 'home'],
  ['/payments', 'payments'],
  ['/checkout-sessions', 'checkout-sessions'],
  ['/developers', 'developers'],
  ['/team', 'team'],
  ['/audit', 'audit'],
]);

/** A merchant's detail pages: `/payments/:id`, `/checkout-sessions/:id`. */
const DETAIL = /^\/(payments|checkout-sessions)\/([^/]+)$/;

/**
 * The page `path` names for `user`, matched exactly: a path of no page, one of the other kind of user's pages (a
 * merchant user's `/admin/refunds`, an admin's `/payments`), one the role may not see (the server would answer 403:
 * no form to fill in vain), or a detail path with a malformed id, is not found; never some other page in its place.
 */
export function pageRoute(path: string, user: DashboardPrincipal): PageRoute {
  if (path === '/account') return { page: 'account' };
  if (user.role === 'platform_admin') {
    const page = ADMIN_PAGES.get(path);
    return page ? { page } : NOT_FOUND;
  }
  const detail = DETAIL.exec(path);
  if (detail) {
    const id = decodeSegment(detail[2]);
    if (id === undefined) return NOT_FOUND;
    return { page: detail[1] === 'payments' ? 'payment' : 'checkout-session', id };
  }
  const page = MERCHANT_PAGES.get(path);
  if (!page) return NOT_FOUND;
  // As the header's links: only for the roles that may.
  if (page === 'team' && !may(user, 'team.manage')) return NOT_FOUND;
  if (page === 'audit' && !may(user, 'audit.read')) return NOT_FOUND;
  return { page };
}

const HEADINGS: Record<ListPage, keyof Messages> = {
  account: 'changePassword',
  home: 'home',
  payments: 'payments',
  'checkout-sessions': 'checkoutSessions',
  developers: 'developers',
  team: 'team',
  audit: 'audit',
  'admin-refunds': 'refundQueue',
  'admin-review': 'reviewQueue',
  'admin-merchants': 'merchants',
  'admin-audit': 'audit',
  'admin-quarantine': 'quarantine',
  'not-found': 'notFound',
};

/** The page's name, as its h1 says it, in the reader's language. */
export function pageHeading(route: PageRoute, t: Messages): string {
  if (route.page === 'payment') return `${t.payment} ${route.id}`;
  if (route.page === 'checkout-session') return `${t.sessionDetail} ${route.id}`;
  return t[HEADINGS[route.page]];
}

/** The window's title (tabs, history, what a screen reader says first, WCAG 2.4.2): the page's name, then the app's. */
export const documentTitle = (heading: string, t: Messages): string => `${heading} · ${t.dashboard}`;
