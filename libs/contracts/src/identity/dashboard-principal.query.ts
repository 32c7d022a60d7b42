import { IsString, Length } from 'class-validator';

/**
 * `identity.dashboard-principal.v1`: who a signed-in dashboard user is now. A
 * session holds the principal read at sign-in; the dashboard asks again once
 * that is older than its recheck bound, since the user's role or password (its
 * credential version) may have changed or the user been removed meanwhile.
 * NOT_FOUND for a removed or unknown user.
 */
export class DashboardPrincipalQuery {
  @IsString()
  @Length(1, 64)
  user_id!: string;
}
