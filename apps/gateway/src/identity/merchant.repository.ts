import { DomainError, ErrorCode } from '@pp/contracts';
import type { Queryable } from './queryable';
import { returning } from './queryable';

export interface MerchantRecord {
  id: string;
  name: string;
  email: string;
  etransfer_email: string | null;
  /** Origins allowed to frame the embedded checkout, e.g. https://shop.example.com. */
  frame_ancestors: string[];
  created_at: Date;
  updated_at: Date;
}

export interface MerchantChanges {
  name?: string;
  etransfer_email?: string | null;
  frame_ancestors?: string[];
}

export class MerchantRepository {
  constructor(private readonly db: Queryable) {}

  async insert(merchant: Pick<MerchantRecord, 'id' | 'name' | 'email' | 'etransfer_email'>): Promise<MerchantRecord> {
    const [row] = await this.db.query<MerchantRecord[]>(
      `INSERT INTO gateway.merchants (id, name, email, etransfer_email) VALUES ($1, $2, $3, $4) RETURNING *`,
      [merchant.id, merchant.name, merchant.email, merchant.etransfer_email],
    );
    return row;
  }

  /**
   * Newest first; `search` is a case-insensitive substring of name, e-mail or deposit address. An unknown
   * `startingAfter` is NOT_FOUND, as in the other admin lists: an empty page would read as the end of the list.
   */
  async list(search: string | undefined, limit: number, startingAfter: string | undefined): Promise<MerchantRecord[]> {
    if (startingAfter && !(await this.find(startingAfter))) throw new DomainError(ErrorCode.NotFound, 'Merchant not found');
    const pattern = search ? `%${search.replace(/[\\%_]/g, '\\$&')}%` : null;
    return this.db.query<MerchantRecord[]>(
      `SELECT * FROM gateway.merchants m
       WHERE ($1::text IS NULL OR m.name ILIKE $1 OR m.email ILIKE $1 OR coalesce(m.etransfer_email, '') ILIKE $1)
         AND ($2::text IS NULL OR (m.created_at, m.id) < (SELECT created_at, id FROM gateway.merchants WHERE id = $2))
       ORDER BY m.created_at DESC, m.id DESC
       LIMIT $3`,
      [pattern, startingAfter ?? null, limit],
    );
  }

  async find(id: string): Promise<MerchantRecord | undefined> {
    const [row] = await this.db.query<MerchantRecord[]>(`SELECT * FROM gateway.merchants WHERE id = $1`, [id]);
    return row;
  }

  /** The merchant, its row locked until the transaction ends: changes counted against it (its keys) go one at a time. */
  async lock(id: string): Promise<MerchantRecord | undefined> {
    const [row] = await this.db.query<MerchantRecord[]>(`SELECT * FROM gateway.merchants WHERE id = $1 FOR UPDATE`, [id]);
    return row;
  }

  /** Sets the given fields; undefined leaves a field as is, null clears etransfer_email. */
  async update(id: string, changes: MerchantChanges): Promise<MerchantRecord | undefined> {
    const [row] = await returning<MerchantRecord>(
      this.db,
      `UPDATE gateway.merchants
          SET name = COALESCE($2, name),
              etransfer_email = CASE WHEN $3 THEN $4 ELSE etransfer_email END,
              frame_ancestors = COALESCE($5, frame_ancestors),
              updated_at = now()
        WHERE id = $1
        RETURNING *`,
      [id, changes.name ?? null, changes.etransfer_email !== undefined, changes.etransfer_email ?? null, changes.frame_ancestors ?? null],
    );
    return row;
  }
}
