import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type AddedTeamUserView,
  AddTeamUserCommand,
  DomainError,
  ErrorCode,
  ListTeamQuery,
  RemoveTeamUserCommand,
  SetTeamRoleCommand,
  type TeamUserView,
} from '@pp/contracts';
import { newId, toIso } from '@pp/kernel';
import { Handles, isUniqueViolation } from '@pp/platform';
import { DataSource } from 'typeorm';
import { CommandCreationRequests, inRecordedTransaction, refuseRepeatedCreation } from '../idempotency/creation-requests';
import { type DashboardUserRecord, DashboardUserRepository } from '../identity/dashboard-user.repository';
import { generatePassword, hashPassword } from '../identity/password';
import { isEmailTakenByOtherKind, lockAccountEmails } from '../identity/account-emails';
import { NOT_AN_OWNER, NOT_ON_TEAM, NOT_YOURSELF, refuseTeamAddition, refuseTeamChange, TEAM_FULL } from './team-change.policy';

/** How each refused team change is answered. */
const REFUSAL_CODE: Record<string, ErrorCode> = { [NOT_AN_OWNER]: ErrorCode.Forbidden, [NOT_ON_TEAM]: ErrorCode.NotFound, [NOT_YOURSELF]: ErrorCode.Conflict, [TEAM_FULL]: ErrorCode.Conflict };

export const EMAIL_TAKEN = 'A dashboard user with this email already exists';

const teamUserView = (user: DashboardUserRecord): TeamUserView => ({
  id: user.id,
  email: user.email,
  role: user.role,
  created_at: toIso(user.created_at),
  last_sign_in_at: user.last_sign_in_at ? toIso(user.last_sign_in_at) : null,
});

/**
 * The Team page's commands (the gateway owns dashboard users). Changes read
 * the team under a row lock, so the rule (team-change.policy.ts) sees what
 * the change will be applied to.
 */
@Controller()
export class TeamHandler {
  private readonly users: DashboardUserRepository;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly creations: CommandCreationRequests,
  ) {
    this.users = new DashboardUserRepository(dataSource);
  }

  @Handles('identity.team.list.v1')
  async list(@Payload() query: ListTeamQuery): Promise<{ users: TeamUserView[] }> {
    return { users: (await this.users.listForMerchant(query.merchant_id)).map(teamUserView) };
  }

  /** With the dashboard's Idempotency-Key, recorded with the user (creation-requests.ts): the generated password is shown once. */
  @Handles('identity.team.add.v1')
  async add(@Payload() command: AddTeamUserCommand): Promise<AddedTeamUserView> {
    const request = this.creations.of(`team:${command.merchant_id}`, 'identity.team.add.v1', command.idempotency);
    await refuseRepeatedCreation(this.dataSource, request);
    // Hashed before any refusal: an e-mail taken by another merchant's user is refused after the hashing and inside
    // the transaction (by the unique index), and a quicker answer for a platform admin's would tell an owner which
    // addresses are operators; so that one is refused in the transaction too, as taken by a dashboard user.
    const password = generatePassword();
    const passwordHash = await hashPassword(password);
    const user = await inRecordedTransaction(
      this.dataSource,
      request,
      'team_user',
      async (tx) => {
        const users = new DashboardUserRepository(tx);
        // The sender may have been demoted or removed since the dashboard checked (the password's hashing takes a while);
        // the lock also keeps two additions from together passing the team's size.
        const refusal = refuseTeamAddition(await users.lockTeam(command.merchant_id), command.acting_user_id);
        if (refusal) throw new DomainError(REFUSAL_CODE[refusal], refusal);
        // A platform admin's e-mail signs the admin in, never this user. The account e-mails' lock is the last one taken:
        // every creation waits on it, so it is never held while waiting for one team.
        await lockAccountEmails(tx);
        if (await isEmailTakenByOtherKind(tx, 'dashboard_user', command.email)) throw new DomainError(ErrorCode.Conflict, EMAIL_TAKEN);
        return users.insert({ id: newId('user'), merchant_id: command.merchant_id, email: command.email, password_hash: passwordHash, role: command.role });
      },
      (added) => added.id,
    ).catch((error: unknown) => {
      throw isUniqueViolation(error) ? new DomainError(ErrorCode.Conflict, EMAIL_TAKEN) : error;
    });
    return { ...teamUserView(user), password };
  }

  @Handles('identity.team.set-role.v1')
  setRole(@Payload() command: SetTeamRoleCommand): Promise<TeamUserView> {
    return this.change(command, async (users) => teamUserView(await users.setRole(command.user_id, command.role)));
  }

  @Handles('identity.team.remove.v1')
  remove(@Payload() command: RemoveTeamUserCommand): Promise<{ id: string; removed: true }> {
    return this.change(command, async (users) => {
      await users.markRemoved(command.user_id);
      return { id: command.user_id, removed: true as const };
    });
  }

  private change<T>(command: RemoveTeamUserCommand, apply: (users: DashboardUserRepository) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (tx) => {
      const users = new DashboardUserRepository(tx);
      const refusal = refuseTeamChange(await users.lockTeam(command.merchant_id), command.acting_user_id, command.user_id);
      if (refusal) throw new DomainError(REFUSAL_CODE[refusal], refusal);
      return apply(users);
    });
  }
}
