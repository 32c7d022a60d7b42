import type { DashboardRole } from '@pp/contracts';
import type { Queryable } from './queryable';
import { returning } from './queryable';


export interface DashboardUserRecord {
  id: string;
  merchant_id: string;
  email: string;
  password_hash: string;
  role: DashboardRole;
  created_at: Date;
}

export class DashboardUserRepository {
  constructor(private readonly db: Queryable) {}

  async insert(user: Omit<DashboardUserRecord, 'created_at'>): Promise<DashboardUserRecord> {
    const [row] = await this.db.query<DashboardUserRecord[]>(
      `INSERT INTO gateway.dashboard_users (id, merchant_id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [user.id, user.merchant_id, user.email, user.password_hash, user.role],
    );
    return row;
  }

  async findById(id: string): Promise<DashboardUserRecord | undefined> {
    const [row] = await this.db.query<DashboardUserRecord[]>(`SELECT * FROM gateway.dashboard_users WHERE id = $1`, [id]);
    return row;
  }

  async findByEmail(email: string): Promise<DashboardUserRecord | undefined> {
    const [row] = await this.db.query<DashboardUserRecord[]>(`SELECT * FROM gateway.dashboard_users WHERE lower(email) = lower($1)`, [email]);
    return row;
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await returning(this.db, `UPDATE gateway.dashboard_users SET password_hash = $2 WHERE id = $1`, [id, passwordHash]);
  }
}
