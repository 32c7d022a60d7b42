import type { Queryable } from './queryable';
import { returning } from './queryable';

export interface PlatformAdminRecord {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date;
}

/** Operators of the platform (the dashboard's admin console), not tied to a merchant. */
export class PlatformAdminRepository {
  constructor(private readonly db: Queryable) {}

  async insert(admin: Omit<PlatformAdminRecord, 'created_at'>): Promise<PlatformAdminRecord> {
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

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await returning(this.db, `UPDATE gateway.platform_admins SET password_hash = $2 WHERE id = $1`, [id, passwordHash]);
  }
}
