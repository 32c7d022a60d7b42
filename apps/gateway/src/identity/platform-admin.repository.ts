import { type Queryable, returning } from './queryable';
import { PasswordCredentials } from './password-credentials';

export interface PlatformAdminRecord {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date;
  /** One more at every password change (setPassword): a dashboard session holding an older one ends at its next recheck. */
  credential_version: number;
  /** Set once, by remove: the row stays for the names in the audit trail, every lookup skips it. */
  removed_at: Date | null;
}

/** Operators of the platform (the dashboard's admin console), not tied to a merchant. */
export class PlatformAdminRepository {
  private readonly passwords: PasswordCredentials;

  constructor(private readonly db: Queryable) {
    this.passwords = new PasswordCredentials(db, 'gateway.platform_admins');
  }

  async insert(admin: Omit<PlatformAdminRecord, 'created_at' | 'credential_version' | 'removed_at'>): Promise<PlatformAdminRecord> {
    const [row] = await this.db.query<PlatformAdminRecord[]>(
      `INSERT INTO gateway.platform_admins (id, email, password_hash) VALUES ($1, $2, $3) RETURNING *`,
      [admin.id, admin.email, admin.password_hash],
    );
    return row;
  }

  async findById(id: string): Promise<PlatformAdminRecord | undefined> {
    const [row] = await this.db.query<PlatformAdminRecord[]>(`SELECT * FROM gateway.platform_admins WHERE id = $1 AND removed_at IS NULL`, [id]);
    return row;
  }

  async findByEmail(email: string): Promise<PlatformAdminRecord | undefined> {
    const [row] = await this.db.query<PlatformAdminRecord[]>(`SELECT * FROM gateway.platform_admins WHERE lower(email) = lower($1) AND removed_at IS NULL`, [email]);
    return row;
  }

  /** The new hash and the next credential version (PasswordCredentials). */
  setPassword(id: string, passwordHash: string): Promise<number> {
    return this.passwords.setPassword(id, passwordHash);
  }

  /** Today's hash of the same password, only over the hash read at sign-in (PasswordCredentials). */
  upgradeHash(id: string, previousHash: string, passwordHash: string): Promise<void> {
    return this.passwords.upgradeHash(id, previousHash, passwordHash);
  }

  /** Every admin not removed, oldest first (a handful: the platform's operators). */
  listActive(): Promise<PlatformAdminRecord[]> {
    return this.db.query<PlatformAdminRecord[]>(`SELECT * FROM gateway.platform_admins WHERE removed_at IS NULL ORDER BY created_at, id`);
  }

  /** Marks the admin removed; undefined when there is no such admin or it was removed already. */
  async remove(id: string): Promise<PlatformAdminRecord | undefined> {
    const [row] = await returning<PlatformAdminRecord>(this.db, `UPDATE gateway.platform_admins SET removed_at = now() WHERE id = $1 AND removed_at IS NULL RETURNING *`, [id]);
    return row;
  }
}
