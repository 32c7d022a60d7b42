import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { IdempotencyToken } from '../idempotency';
import { IsEmailAddress } from '../email-address';
import { DASHBOARD_ROLES, type DashboardRole } from './dashboard-login.query';

const MERCHANT_ID = /^mer_[a-z0-9]{1,64}$/;
const USER_ID = /^usr_[a-z0-9]{1,64}$/;

/** Roles an owner gives a new user: a second owner is made by changing a user's role. */
export const ADDABLE_ROLES = ['administrator', 'developer', 'viewer'] as const satisfies readonly DashboardRole[];
export type AddableRole = (typeof ADDABLE_ROLES)[number];

/** A merchant's dashboard user as the Team page lists it. */
export interface TeamUserView {
  id: string;
  email: string;
  role: DashboardRole;
  created_at: string;
  last_sign_in_at: string | null;
}

/** At creation: the generated password, shown once. */
export interface AddedTeamUserView extends TeamUserView {
  password: string;
}

/** `identity.team.list.v1`: the merchant's current users, oldest first. */
export class ListTeamQuery {
  @Matches(MERCHANT_ID, { message: 'merchant_id must look like mer_…' })
  merchant_id!: string;
}

/** `identity.team.add.v1`: a new user with a generated password. */
export class AddTeamUserCommand extends ListTeamQuery {
  @IsEmailAddress('email')
  email!: string;

  @IsIn(ADDABLE_ROLES, { message: `role must be one of ${ADDABLE_ROLES.join(', ')}` })
  role!: AddableRole;

  /** The dashboard request's Idempotency-Key: recorded with the user added, so a repeat adds none (CONFLICT naming the user: the password was shown once). */
  @IsOptional()
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency?: IdempotencyToken;

  /**
   * The signed-in owner adding the user: refused unless still an owner on the locked team. A dashboard of the release
   * before, still rolling out, sends none, and its additions go on as they did; required from the release after.
   */
  @IsOptional()
  @IsString()
  @Length(1, 64)
  acting_user_id?: string;
}

/** A change one owner makes to another user of the same merchant. */
class TeamUserCommand extends ListTeamQuery {
  @Matches(USER_ID, { message: 'user_id must look like usr_…' })
  user_id!: string;

  /** The signed-in owner making the change: nobody removes or demotes themself. */
  @IsString()
  @Length(1, 64)
  acting_user_id!: string;
}

/** `identity.team.set-role.v1`. */
export class SetTeamRoleCommand extends TeamUserCommand {
  @IsIn(DASHBOARD_ROLES, { message: `role must be one of ${DASHBOARD_ROLES.join(', ')}` })
  role!: DashboardRole;
}

/** `identity.team.remove.v1`: the user can no longer sign in (the row stays, for the audit trail). */
export class RemoveTeamUserCommand extends TeamUserCommand {}
