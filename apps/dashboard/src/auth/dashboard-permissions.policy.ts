import type { ApiKeyType, DashboardPrincipalRole, PLATFORM_ADMIN_ROLE } from '@pp/contracts';

/** PLATFORM_ADMIN_ROLE's value, written out: this module imports types alone (see below); the type keeps the two equal. */
const PLATFORM_ADMIN: typeof PLATFORM_ADMIN_ROLE = 'platform_admin';

/**
 * What each dashboard role may do (docs/ARCHITECTURE.md "Dashboard").
 * The server checks every route against this table; the pages only hide
 * what the server would refuse anyway, and read this same table to know
 * what that is (web/src/permissions.ts). The web bundle imports no values
 * from @pp/contracts, so neither may this module: types only.
 */
export const DASHBOARD_PERMISSIONS = {
  /** Payments, sessions, refunds, events: every merchant user. */
  'merchant.read': ['owner', 'administrator', 'developer', 'viewer'],
  'payments.simulate': ['owner', 'administrator', 'developer'],
  /** API keys, webhook endpoints and event resends (the Developers page). */
  'developers.manage': ['owner', 'administrator', 'developer'],
  /** Money actions: refund requests and manual verification. */
  'payments.refund': ['owner', 'administrator'],
  'payments.verify': ['owner', 'administrator'],
  /** The platform operator's console (live refunds, review queue, merchants). */
  'platform.operate': [PLATFORM_ADMIN],
  /** The Team page: add, remove users and set their roles. */
  'team.manage': ['owner'],
  /** The merchant's audit list. */
  'audit.read': ['owner', 'administrator'],
} as const satisfies Record<string, readonly DashboardPrincipalRole[]>;

export type DashboardPermission = keyof typeof DASHBOARD_PERMISSIONS;

export const mayPerform = (role: DashboardPrincipalRole, permission: DashboardPermission): boolean =>
  (DASHBOARD_PERMISSIONS[permission] as readonly DashboardPrincipalRole[]).includes(role);

/** The key a user asks for: its mode, type and, for a restricted key, its scopes. */
export interface RequestedKey {
  livemode: boolean;
  type: ApiKeyType;
  scopes?: readonly string[];
}

/**
 * Whether `role` may issue the key. Keys are the Developers page's, but a
 * live key that can request refunds (a secret key, or a restricted one with
 * `refunds.write`) is a money action, so only roles that may refund issue
 * one; a developer issues test keys of any kind and live keys that cannot
 * refund.
 */
export function mayIssueKey(role: DashboardPrincipalRole, key: RequestedKey): boolean {
  if (!mayPerform(role, 'developers.manage')) return false;
  if (mayPerform(role, 'payments.refund') || !key.livemode) return true;
  if (key.type === 'secret') return false;
  return key.type === 'publishable' || !(key.scopes ?? []).includes(REFUNDS_SCOPE);
}

/** The API scope that requests refunds (apps/gateway/src/identity/scopes.ts). */
const REFUNDS_SCOPE = 'refunds.write';
