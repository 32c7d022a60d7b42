import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ChangeDashboardPasswordCommand, DashboardLoginQuery, type DashboardSessionPrincipal, DomainError, ErrorCode, signInEmailKey } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { DataSource } from 'typeorm';
import { adminPrincipal, userPrincipal } from './dashboard-principal.view';
import { DashboardUserRepository } from './dashboard-user.repository';
import { hashPassword, needsRehash, verifyPassword } from './password';
import { PlatformAdminRepository } from './platform-admin.repository';

export const INVALID_SIGN_IN = 'Invalid email or password';

/**
 * Checks a dashboard sign-in (the gateway owns users and their hashes; the
 * dashboard never sees a hash). Platform admins first, then merchant users,
 * both read every time. An unknown e-mail still costs one scrypt run, so the
 * answer and its timing do not tell which e-mails exist. The row is found by Postgres' lower(), but
 * signs in only when the typed e-mail also has the stored one's
 * signInEmailKey, the form the dashboard's sign-in counters are named by.
 * A hash made with older scrypt parameters is remade at a good sign-in.
 */
@Controller()
export class DashboardLoginHandler {
  private readonly users: DashboardUserRepository;
  private readonly admins: PlatformAdminRepository;
  private readonly decoy: Promise<string>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.users = new DashboardUserRepository(dataSource);
    this.admins = new PlatformAdminRepository(dataSource);
    this.decoy = hashPassword('decoy password for unknown e-mails');
  }

  @Handles('identity.dashboard-login.v1')
  async login(@Payload() query: DashboardLoginQuery): Promise<DashboardSessionPrincipal> {
    const typed = signInEmailKey(query.email);
    // lower() folds by the database's locale (libc: 'İ' is 'i'), the dashboard's counters by signInEmailKey ('İ' is 'i̇'):
    // an account is reached only by spellings both fold to it, so every spelling that reaches it spends its counters.
    const named = <T extends { email: string }>(row: T | undefined): T | undefined => (row && signInEmailKey(row.email) === typed ? row : undefined);
    // Both looked up whatever the first finds: skipping the second for an operator's e-mail answered a round trip sooner.
    const [adminRow, userRow] = await Promise.all([this.admins.findByEmail(query.email), this.users.findByEmail(query.email)]);
    const admin = named(adminRow);
    const user = admin ? undefined : named(userRow);
    const hash = admin?.password_hash ?? user?.password_hash ?? (await this.decoy);
    const valid = await verifyPassword(query.password, hash);
    if (valid && admin) {
      if (needsRehash(admin.password_hash)) await this.upgrade(() => hashPassword(query.password).then((hash) => this.admins.upgradeHash(admin.id, admin.password_hash, hash)));
      return adminPrincipal(admin);
    }
    if (valid && user) {
      if (needsRehash(user.password_hash)) await this.upgrade(() => hashPassword(query.password).then((hash) => this.users.upgradeHash(user.id, user.password_hash, hash)));
      await this.users.recordSignIn(user.id);
      return userPrincipal(user);
    }
    throw new DomainError(ErrorCode.Unauthorized, INVALID_SIGN_IN);
  }

  /** Remakes a hash at today's cost, unless every hashing slot is taken: the sign-in stands, and the next good one remakes it. */
  private async upgrade(remake: () => Promise<void>): Promise<void> {
    await remake().catch((error: unknown) => {
      if (!(error instanceof DomainError && error.code === ErrorCode.ServiceUnavailable)) throw error;
    });
  }

  /**
   * The user's own password: the current one is checked again, so a stolen session alone cannot take the account over.
   * The credential version goes up with the hash; the answer carries it for the session that asked.
   */
  @Handles('identity.dashboard-password.v1')
  async changePassword(@Payload() command: ChangeDashboardPasswordCommand): Promise<{ changed: true; credential_version: number }> {
    const admin = await this.admins.findById(command.user_id);
    const user = admin ? undefined : await this.users.findById(command.user_id);
    const hash = admin?.password_hash ?? user?.password_hash ?? (await this.decoy);
    if (!(await verifyPassword(command.current_password, hash)) || (!admin && !user)) {
      throw new DomainError(ErrorCode.Unauthorized, 'Current password is wrong');
    }
    const newHash = await hashPassword(command.new_password);
    const credentialVersion = admin ? await this.admins.setPassword(admin.id, newHash) : await this.users.setPassword(user!.id, newHash);
    return { changed: true, credential_version: credentialVersion };
  }
}
