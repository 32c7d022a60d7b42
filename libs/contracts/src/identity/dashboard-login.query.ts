import { IsString, Length, MaxLength } from 'class-validator';

/**
 * Roles of a merchant's dashboard users (docs/ARCHITECTURE.md "Dashboard"):
 * owner (everything, and the team), administrator (refunds, manual
 * verification, keys, webhooks), developer (keys, webhooks, simulate,
 * events; no money actions, so no live key that can request refunds),
 * viewer (read only). Wire values: do not rename.
 */
export const DASHBOARD_ROLES = ['owner', 'administrator', 'developer', 'viewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

/** Platform operators sign in on the same page; they belong to no merchant. */
export const PLATFORM_ADMIN_ROLE = 'platform_admin';
export type DashboardPrincipalRole = DashboardRole | typeof PLATFORM_ADMIN_ROLE;

/** `identity.dashboard-login.v1`: checks a sign-in against the gateway's users and platform admins. */
export class DashboardLoginQuery {
  @IsString()
  @Length(1, 254)
  email!: string;

  @IsString()
  @MaxLength(256)
  password!: string;
}

/** Who signed in: `merchant_id` only for merchant users. */
export interface DashboardPrincipal {
  id: string;
  email: string;
  role: DashboardPrincipalRole;
  merchant_id?: string;
}

/**
 * What the gateway answers at sign-in and on a recheck, and what a dashboard session holds (never shown to the
 * browser): the principal and `credential_version`, the version of the account's password it was read with (0 at
 * creation, one more at every change). The dashboard ends a session holding an older version than the gateway's at
 * its next recheck, so a password change reaches every other session even when ending them at once failed or a
 * sign-in with the old password stored its session after the ending (docs/ARCHITECTURE.md "Dashboard").
 */
export interface DashboardSessionPrincipal extends DashboardPrincipal {
  credential_version: number;
}

/**
 * The form of a typed sign-in e-mail that names an account: the dashboard keys its sign-in counters by it, and the
 * gateway signs in only an account whose stored e-mail has the same form as the typed one. Postgres' lower(), which
 * finds the row, folds by the database's locale and so differs from this for some characters (U+0130 'İ' is 'i' there,
 * 'i̇' here); requiring both to agree means no other spelling of an account reaches it with a counter of its own.
 */
export const signInEmailKey = (email: string): string => email.toLowerCase();

/** `identity.dashboard-password.v1`: a signed-in user changes their own password (the current one is checked again). */
export class ChangeDashboardPasswordCommand {
  @IsString()
  @Length(1, 64)
  user_id!: string;

  @IsString()
  @MaxLength(256)
  current_password!: string;

  @IsString({ message: 'new_password must be a string' })
  @Length(12, 256, { message: 'new_password must be 12 to 256 characters' })
  new_password!: string;
}
