import { DomainError, ErrorCode } from '@pp/contracts';
import type { Queryable } from './queryable';
import { returning } from './queryable';

/** The tables of accounts that sign in to the dashboard with a password: merchant users and platform admins. */
export type PasswordTable = 'gateway.dashboard_users' | 'gateway.platform_admins';

/** How each table's missing account is answered (NOT_FOUND). */
export const ACCOUNT_NOT_FOUND: Record<PasswordTable, string> = {
  'gateway.dashboard_users': 'Dashboard user not found',
  'gateway.platform_admins': 'Platform admin not found',
};

/** A password hash and its credential version, kept alike for both kinds of account. */
export class PasswordCredentials {
  constructor(
    private readonly db: Queryable,
    private readonly table: PasswordTable,
  ) {}

  /**
   * The new hash and, in the same statement, the next credential version, which it answers. An account removed since
   * it was read is not changed (NOT_FOUND): a password set at the moment of a removal must not be reported, or
   * audited, as set.
   */
  async setPassword(id: string, passwordHash: string): Promise<number> {
    const [row] = await returning<{ credential_version: number }>(
      this.db,
      `UPDATE ${this.table} SET password_hash = $2, credential_version = credential_version + 1 WHERE id = $1 AND removed_at IS NULL RETURNING credential_version`,
      [id, passwordHash],
    );
    if (!row) throw new DomainError(ErrorCode.NotFound, ACCOUNT_NOT_FOUND[this.table]);
    return row.credential_version;
  }

  /**
   * The same password hashed with today's parameters. The credential version stays (no session ends), and the
   * hash read at sign-in must still be there: a password changed meanwhile is never overwritten with the old one.
   */
  async upgradeHash(id: string, previousHash: string, passwordHash: string): Promise<void> {
    await returning(this.db, `UPDATE ${this.table} SET password_hash = $3 WHERE id = $1 AND password_hash = $2`, [id, previousHash, passwordHash]);
  }
}
