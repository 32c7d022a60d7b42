import type { AuditAction, AuditEntryView, AuditOutcome, RecordAuditEntryCommand } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import type { Queryable } from '../identity/queryable';

interface AuditEntryRow extends Omit<AuditEntryView, 'at' | 'action' | 'outcome'> {
  action: AuditAction;
  outcome: AuditOutcome;
  at: Date;
}

export interface AuditFilter {
  merchant_id?: string;
  action?: AuditAction;
  starting_after?: string;
}

const COLUMNS = ['id', 'actor_id', 'actor_email', 'actor_role', 'merchant_id', 'livemode', 'action', 'target_id', 'outcome', 'detail', 'request_id', 'address'] as const;

const entryView = (row: AuditEntryRow): AuditEntryView => ({ ...row, at: toIso(row.at) });

/** gateway.audit_entries: append-only (the table's triggers and grants refuse any change). */
export class AuditEntryRepository {
  constructor(private readonly db: Queryable) {}

  /** Stores the entry once: a retried record with the same id changes nothing. */
  async append(entry: RecordAuditEntryCommand): Promise<void> {
    await this.db.query(
      `INSERT INTO gateway.audit_entries (${COLUMNS.join(', ')}, at)
       VALUES (${COLUMNS.map((_, index) => `$${index + 1}`).join(', ')}, to_timestamp($${COLUMNS.length + 1}::double precision / 1000))
       ON CONFLICT (id) DO NOTHING`,
      [...COLUMNS.map((column) => entry[column]), entry.at],
    );
  }

  /** Newest first, `limit` rows after the `starting_after` entry. */
  async list(filter: AuditFilter, limit: number): Promise<AuditEntryView[]> {
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    /** A condition whose `?`s take the values in order. */
    const where = (sql: string, ...values: unknown[]) => {
      conditions.push(sql.replace(/\?/g, () => (parameters.push(values.shift()), `$${parameters.length}`)));
    };
    if (filter.merchant_id) where('merchant_id = ?', filter.merchant_id);
    if (filter.action) where('action = ?', filter.action);
    // The cursor is looked up within the same merchant: another merchant's entry id reads as unknown (an empty page),
    // never as a position that would tell it exists.
    const cursorOwner = filter.merchant_id ? ' AND merchant_id = ?' : '';
    if (filter.starting_after) {
      where(`position < coalesce((SELECT position FROM gateway.audit_entries WHERE id = ?${cursorOwner}), 0)`, filter.starting_after, filter.merchant_id);
    }
    parameters.push(limit);
    const rows = await this.db.query<AuditEntryRow[]>(
      `SELECT ${COLUMNS.join(', ')}, at FROM gateway.audit_entries
        ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
        ORDER BY position DESC LIMIT $${parameters.length}`,
      parameters,
    );
    return rows.map(entryView);
  }
}
