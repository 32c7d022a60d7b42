import type { DashboardRole } from '@pp/contracts';
import type { Queryable } from './queryable';
import { returning } from './queryable';
import { PasswordCredentials } from './password-credentials';

export interface DashboardUserRecord {
  id: string;
  merchant_id: string;
  email: string;
  password_hash: string;
  role: DashboardRole;
  created_at: Date;
  last_sign_in_at: Date | null;
  /** Set when an owner removes the user: the row stays for the audit trail, the user no longer exists for anything else. */
  removed_at: Date | null;
  /** One more at every password change (setPassword): a dashboard session holding an older one ends at its next recheck. */
  credential_version: number;
}

/** Dashboard users; every read skips removed ones (their rows stay for the audit trail). */
export class DashboardUserRepository {
  private readonly passwords: PasswordCredentials;

  constructor(private readonly db: Queryable) {
    this.passwords = new PasswordCredentials(db, 'gateway.dashboard_users');
  }

  async insert(user: Pick<DashboardUserRecord, 'id' | 'merchant_id' | 'email' | 'password_hash' | 'role'>): Promise<DashboardUserRecord> {
    const [row] = await this.db.query<DashboardUserRecord[]>(
      `INSERT INTO gateway.dashboard_users (id, merchant_id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [user.id, user.merchant_id, user.email, user.password_hash, user.role],
    );
    return row;
  }

  async findById(id: string): Promise<DashboardUserRecord | undefined> {
    const [row] = await this.db.query<DashboardUserRecord[]>(`SELECT * FROM gateway.dashboard_users WHERE id = $1 AND removed_at IS NULL`, [id]);
    return row;
  }

  async findByEmail(email: string): Promise<DashboardUserRecord | undefined> {
    const [row] = await this.db.query<DashboardUserRecord[]>(`SELECT * FROM gateway.dashboard_users WHERE lower(email) = lower($1) AND removed_at IS NULL`, [email]);
    return row;
  }

  /** The merchant's users, oldest first. */
  listForMerchant(merchantId: string): Promise<DashboardUserRecord[]> {
    return this.db.query<DashboardUserRecord[]>(`SELECT * FROM gateway.dashboard_users WHERE merchant_id = $1 AND removed_at IS NULL ORDER BY created_at, id`, [merchantId]);
  }

  /**
   * As listForMerchant, with the team locked until the transaction ends: its merchant's row first, in a statement of
   * its own, then the users. So two owners' changes cannot together leave no owner, and a second addition that waited
   * reads the team with the first's user in it (a statement that waits on a row lock still reads the team as it was
   * when the statement began: a user added meanwhile would be missed, and two additions could pass the team's size).
   */
  async lockTeam(merchantId: string): Promise<DashboardUserRecord[]> {
    await this.db.query(`SELECT 1 FROM gateway.merchants WHERE id = $1 FOR NO KEY UPDATE`, [merchantId]);
    return this.db.query<DashboardUserRecord[]>(
      `SELECT * FROM gateway.dashboard_users WHERE merchant_id = $1 AND removed_at IS NULL ORDER BY created_at, id FOR UPDATE`,
      [merchantId],
    );
  }

  /** The new hash and the next credential version (PasswordCredentials). */
  setPassword(id: string, passwordHash: string): Promise<number> {
    return this.passwords.setPassword(id, passwordHash);
  }

  /** Today's hash of the same password, only over the hash read at sign-in (PasswordCredentials). */
  upgradeHash(id: string, previousHash: string, passwordHash: string): Promise<void> {
    return this.passwords.upgradeHash(id, previousHash, passwordHash);
  }



  async setRole(id: string, role: DashboardRole): Promise<DashboardUserRecord> {
    const [row] = await returning<DashboardUserRecord>(this.db, `UPDATE gateway.dashboard_users SET role = $2 WHERE id = $1 RETURNING *`, [id, role]);
    return row;
  }

  async markRemoved(id: string): Promise<void> {
    await returning(this.db, `UPDATE gateway.dashboard_users SET removed_at = now() WHERE id = $1 AND removed_at IS NULL`, [id]);
  }

  async recordSignIn(id: string): Promise<void> {
    await returning(this.db, `UPDATE gateway.dashboard_users SET last_sign_in_at = now() WHERE id = $1`, [id]);
  }
}
