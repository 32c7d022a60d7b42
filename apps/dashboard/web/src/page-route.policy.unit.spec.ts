import { describe, expect, it } from '@jest/globals';
import type { DashboardPrincipal } from '@pp/contracts';
import { MESSAGES } from './i18n';
import { documentTitle, pageHeading, pageRoute } from './page-route.policy';

const user = (role: DashboardPrincipal['role']): DashboardPrincipal =>
  ({ id: `usr_${role}`, email: `${role}@example.com`, role, ...(role === 'platform_admin' ? {} : { merchant_id: 'mer_1' }) }) as DashboardPrincipal;
const owner = user('owner');
const viewer = user('viewer');
const admin = user('platform_admin');

describe('the page a path names', () => {
  it.each([
    ['/', 'home'],
    ['/home', 'home'],
    ['/payments', 'payments'],
    ['/checkout-sessions', 'checkout-sessions'],
    ['/developers', 'developers'],
    ['/team', 'team'],
    ['/audit', 'audit'],
    ['/account', 'account'],
  ])('given a merchant owner at %s, then shows %s', (path, page) => {
    expect(pageRoute(path, owner)).toEqual({ page });
  });

  it.each([
    ['/', 'admin-refunds'],
    ['/admin/refunds', 'admin-refunds'],
    ['/admin/review', 'admin-review'],
    ['/admin/merchants', 'admin-merchants'],
    ['/admin/audit', 'admin-audit'],
    ['/admin/quarantine', 'admin-quarantine'],
    ['/account', 'account'],
  ])('given a platform admin at %s, then shows %s', (path, page) => {
    expect(pageRoute(path, admin)).toEqual({ page });
  });

  it('given a detail path, then shows the record of its id, decoded', () => {
    expect(pageRoute('/payments/txn_abc123', owner)).toEqual({ page: 'payment', id: 'txn_abc123' });
    expect(pageRoute('/checkout-sessions/cs%20x', viewer)).toEqual({ page: 'checkout-session', id: 'cs x' });
  });

  it.each([
    ['a merchant user at the refund queue', '/admin/refunds', owner],
    ['a merchant user at another admin page', '/admin/merchants', owner],
    ['a platform admin at Payments', '/payments', admin],
    ['a platform admin at a payment', '/payments/txn_abc123', admin],
    ['a platform admin at Home', '/home', admin],
    ['a path of no page', '/nowhere', owner],
    ['a path that only starts as a page’s', '/paymentsx', owner],
    ['a page’s path with more after it', '/developers/keys', owner],
    ['an admin page’s path with more after it', '/admin/review/x', admin],
    ['a trailing slash', '/payments/', owner],
    ['a name an object has of its own', '/constructor', owner],
    ['a malformed id', '/payments/%E0%A4%A', owner],
    ['a detail path of two segments', '/payments/txn_a/b', owner],
    ['a viewer at Team, which the role may not manage', '/team', viewer],
    ['a viewer at the audit log, which the role may not read', '/audit', viewer],
  ])('given %s (%s), then shows not found, never another page in its place', (_case, path, who) => {
    expect(pageRoute(path, who)).toEqual({ page: 'not-found' });
  });
});

describe('the title of the page', () => {
  it('given a page, then names it first and the app after, in the reader’s language', () => {
    expect(documentTitle(pageHeading({ page: 'payments' }, MESSAGES.en), MESSAGES.en)).toBe('Payments · Dashboard');
    expect(documentTitle(pageHeading({ page: 'payments' }, MESSAGES.fr), MESSAGES.fr)).toBe('Paiements · Tableau de bord');
    expect(documentTitle(pageHeading({ page: 'not-found' }, MESSAGES.en), MESSAGES.en)).toBe('Page not found · Dashboard');
  });

  it('given a detail page, then names its record as its heading does', () => {
    expect(pageHeading({ page: 'payment', id: 'txn_abc123' }, MESSAGES.en)).toBe('Payment txn_abc123');
    expect(pageHeading({ page: 'checkout-session', id: 'cs_1' }, MESSAGES.fr)).toBe('Session de paiement cs_1');
  });
});
