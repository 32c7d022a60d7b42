import type { Queryable } from './queryable';
import { returning } from './queryable';

export interface PlatformAdminRecord {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date;
  /** One more at every password change (setPassword): a dashboard session holding an older one ends at its next recheck. */
  credential_version: number;
}

/** Operators of the platform (the dashboard's admin console), not tied to a merchant. */
export class PlatformAdminRepository {
  constructor(private readonly db: Queryable) {}

  async insert(admin: Omit<PlatformAdminRecord, 'created_at' | 'credential_version'>): Promise<PlatformAdminRecord> {
    const [row] = await this.db.query<PlatformAdminRecord[]>(
      `INSERT INTO gateway.platform_admins (id, email, password_hash) VALUES ($1, $2, $3) RETURNING *`,
      [admin.id, admin.email, admin.password_hash],
    );
    return row;
  }

  async findById(id: string): Promise<PlatformAdminRecord | undefined> {
    const [row] = await this.db.query<PlatformAdminRecord[]>(`SELECT * FROM gateway.platform_admins WHERE id = $1`, [id]);
    return row;
  }

  async findByEmail(email: string): Promise<PlatformAdminRecord | undefined> {
    const [row] = await this.db.query<PlatformAdminRecord[]>(`SELECT * FROM gateway.platform_admins WHERE lower(email) = lower($1)`, [email]);
    return row;
  }

  /** The new hash and, in the same statement, the next credential version, which it answers. */
  async setPassword(id: string, passwordHash: string): Promise<number> {
    const [row] = await returning<Pick<PlatformAdminRecord, 'credential_version'>>(
      this.db,
      `UPDATE gateway.platform_admins SET password_hash = $2, credential_version = credential_version + 1 WHERE id = $1 RETURNING credential_version`,
      [id, passwordHash],
    );
    return row.credential_version;
  }
  /**
   * The same password hashed with today's parameters. The credential version stays (no session ends), and the
   * hash read at sign-in must still be there: a password changed meanwhile is never overwritten with the old one.
   */
  async upgradeHash(id: string, previousHash: string, passwordHash: string): Promise<void> {
    await returning(this.db, `UPDATE gateway.platform_admins SET password_hash = $3 WHERE id = $1 AND password_hash = $2`, [id, previousHash, passwordHash]);
  }

}
