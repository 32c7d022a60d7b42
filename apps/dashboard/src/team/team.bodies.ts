import { PickType } from '@nestjs/mapped-types';
import { AddTeamUserCommand, SetTeamRoleCommand } from '@pp/contracts';

/** Body of POST /api/team/users: the command's rules, the merchant coming from the signed-in owner. */
export class AddTeamUserBody extends PickType(AddTeamUserCommand, ['email', 'role'] as const) {}

/** Body of PATCH /api/team/users/:id. */
export class SetTeamRoleBody extends PickType(SetTeamRoleCommand, ['role'] as const) {}
