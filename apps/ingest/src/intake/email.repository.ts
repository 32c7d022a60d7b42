import { Inject, Injectable } from '@nestjs/common';
import type { SubmitEmailStatus } from '@pp/contracts';
import { newId } from '@pp/kernel';
import { DataSource } from 'typeorm';
import type { RawMessage } from './raw-message';

export type IntakeChannel = 'bus' | 'jetstream';

export interface StoredEmail {
  id: string;
  raw: Buffer;
  received_at: Date;
}

/** The append-only store of raw messages and of every arrival. */
@Injectable()
export class EmailRepository {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  /**
   * Stores the message unless the same bytes are stored already, and records
   * the arrival either way. The unique sha256 decides, so two copies arriving
   * at once through different ways are stored once. One statement, so one
   * round trip, in the usual case; answers the stored e-mail when this call
   * stored it.
   */
  async store(message: RawMessage, channel: IntakeChannel): Promise<{ id: string; status: SubmitEmailStatus; stored?: StoredEmail }> {
    const [row]: { id: string; received_at: Date; fresh: boolean }[] = await this.db.query(
      `WITH inserted AS (
         INSERT INTO ingest.emails (id, message_id, raw, raw_sha256, size_bytes, channel)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (raw_sha256) DO NOTHING
         RETURNING id, received_at
       ), email AS (
         SELECT id, received_at, true AS fresh FROM inserted
         UNION ALL
         SELECT id, received_at, false FROM ingest.emails WHERE raw_sha256 = $4 AND NOT EXISTS (SELECT 1 FROM inserted)
       ), receipt AS (
         INSERT INTO ingest.email_receipts (email_id, channel, status)
         SELECT id, $6, CASE WHEN fresh THEN 'accepted' ELSE 'duplicate' END FROM email
       )
       SELECT id, received_at, fresh FROM email`,
      [newId('email'), message.messageId, message.bytes, message.sha256, message.bytes.length, channel],
    );
    if (row) return { id: row.id, status: row.fresh ? 'accepted' : 'duplicate', stored: row.fresh ? { id: row.id, raw: message.bytes, received_at: row.received_at } : undefined };
    return this.storeRacingCopy(message, channel);
  }

  /**
   * The other copy was inserted while the statement above ran: its INSERT
   * waited for that copy to commit, but the statement's snapshot is older than
   * the row. A new statement sees it.
   */
  private storeRacingCopy(message: RawMessage, channel: IntakeChannel): Promise<{ id: string; status: SubmitEmailStatus }> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query(`SELECT id FROM ingest.emails WHERE raw_sha256 = $1`, [message.sha256]);
      await tx.query(`INSERT INTO ingest.email_receipts (email_id, channel, status) VALUES ($1, $2, 'duplicate')`, [row.id, channel]);
      return { id: row.id as string, status: 'duplicate' as const };
    });
  }

  async load(id: string): Promise<StoredEmail | null> {
    const [row] = await this.db.query(`SELECT id, raw, received_at FROM ingest.emails WHERE id = $1`, [id]);
    return row ?? null;
  }
}
