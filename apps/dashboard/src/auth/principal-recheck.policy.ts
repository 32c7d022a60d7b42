import type { DashboardSessionPrincipal } from '@pp/contracts';

/**
 * A session holds the principal (user, merchant, role, credential version)
 * the gateway answered when it was last asked, and when that was
 * (`checked_at`, ms). Team changes and password changes end the user's
 * sessions, but a change whose ending failed, or a sign-in that read the
 * principal before the change and stored it after, leaves a session with the
 * old principal; this rule bounds how long a request may act on it.
 */

/**
 * Whether the principal must be confirmed again before a request acts on it: once the bound has passed, or when
 * `checkedAt` is ahead of this clock (written by a replica whose clock runs ahead: trusting it would stretch the bound
 * by the difference).
 */
export function recheckDue(checkedAt: number, now: number, boundMs: number): boolean {
  return now - checkedAt >= boundMs || checkedAt > now;
}

/** What a session becomes once the gateway has said who its user is now. */
export type Recheck =
  /** The user was removed (or is someone else), or their password changed since the session read it: the session ends. */
  | { outcome: 'ended' }
  /** Still the same principal, confirmed at `checked_at`. */
  | { outcome: 'confirmed'; principal: DashboardSessionPrincipal; checked_at: number }
  /** The role (or anything else but a newer credential version) changed: the session goes on as the current principal. */
  | { outcome: 'changed'; principal: DashboardSessionPrincipal; checked_at: number };

/**
 * `held` is the session's principal, `current` the gateway's answer (undefined: no such user any more), `readAt` the
 * time taken before the question was sent: a change committed while it was on its way may be missing from the answer,
 * so the answer counts as confirmed no later than that.
 */
export function afterRecheck(held: DashboardSessionPrincipal, current: DashboardSessionPrincipal | undefined, readAt: number): Recheck {
  if (!current || current.id !== held.id) return { outcome: 'ended' };
  // A newer credential version: the password changed after this session's principal was read (a sign-in with the old
  // password included), so whoever holds the session has not shown the current password.
  if (current.credential_version > held.credential_version) return { outcome: 'ended' };
  return { outcome: samePrincipal(held, current) ? 'confirmed' : 'changed', principal: current, checked_at: readAt };
}

function samePrincipal(a: DashboardSessionPrincipal, b: DashboardSessionPrincipal): boolean {
  return a.email === b.email && a.role === b.role && a.merchant_id === b.merchant_id && a.credential_version === b.credential_version;
}
