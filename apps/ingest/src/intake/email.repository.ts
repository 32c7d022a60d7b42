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
   * at once through different ways are stored once.
   */
  async store(message: RawMessage, channel: IntakeChannel): Promise<{ id: string; status: SubmitEmailStatus }> {
    return this.db.transaction(async (tx) => {
      const inserted: { id: string }[] = await tx.query(
        `INSERT INTO ingest.emails (id, message_id, raw, raw_sha256, size_bytes, channel)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (raw_sha256) DO NOTHING
         RETURNING id`,
        [newId('email'), message.messageId, message.bytes, message.sha256, message.bytes.length, channel],
      );
      // A conflicting insert waited for the other copy to commit, so this new statement sees it.
      const [row] = inserted.length > 0 ? inserted : await tx.query(`SELECT id FROM ingest.emails WHERE raw_sha256 = $1`, [message.sha256]);
      const status: SubmitEmailStatus = inserted.length > 0 ? 'accepted' : 'duplicate';
      await tx.query(`INSERT INTO ingest.email_receipts (email_id, channel, status) VALUES ($1, $2, $3)`, [row.id, channel, status]);
      return { id: row.id as string, status };
    });
  }

  async load(id: string): Promise<StoredEmail | null> {
    const [row] = await this.db.query(`SELECT id, raw, received_at FROM ingest.emails WHERE id = $1`, [id]);
    return row ?? null;
  }
}
