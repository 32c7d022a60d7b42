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

/** One message as it came in, by one way in. */
export interface Arrival {
  message: RawMessage;
  channel: IntakeChannel;
}

/** The stored e-mail's id (the earlier copy's, for a duplicate), and the e-mail itself when this arrival stored it. */
export interface StoreReceipt {
  id: string;
  status: SubmitEmailStatus;
  stored?: StoredEmail;
}

/** Most message bytes one statement carries (bytea travels as hex text, twice the size): a larger message goes alone. */
const STATEMENT_BYTES = 4 * 1024 * 1024;

/** The append-only store of raw messages and of every arrival. */
@Injectable()
export class EmailRepository {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  /**
   * Stores each message unless the same bytes are stored already, and
   * records every arrival either way; one receipt per arrival, in order. The
   * unique sha256 decides, so copies arriving at once, through one way or
   * both, are stored once. One statement for all of them in the usual case;
   * rows go in by hash, so two statements storing the same messages wait for
   * each other in one order instead of deadlocking.
   */
  async storeAll(arrivals: readonly Arrival[]): Promise<StoreReceipt[]> {
    const receipts: StoreReceipt[] = [];
    for (const chunk of byStatement(arrivals)) receipts.push(...(await this.storeChunk(chunk)));
    return receipts;
  }

  private async storeChunk(arrivals: readonly Arrival[]): Promise<StoreReceipt[]> {
    const ids = arrivals.map(() => newId('email'));
    const rows: { id: string | null; received_at: Date | null; fresh: boolean }[] = await this.db.query(
      `WITH given AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[], $4::text[], $5::int[], $6::text[])
           WITH ORDINALITY AS g(id, message_id, raw, raw_sha256, size_bytes, channel, ord)
       ), inserted AS (
         INSERT INTO ingest.emails (id, message_id, raw, raw_sha256, size_bytes, channel)
         SELECT id, message_id, raw, raw_sha256, size_bytes, channel FROM given ORDER BY raw_sha256, ord
         ON CONFLICT (raw_sha256) DO NOTHING
         RETURNING id, received_at
       ), email AS (
         SELECT g.ord, g.channel, coalesce(i.id, e.id) AS id, coalesce(i.received_at, e.received_at) AS received_at, i.id IS NOT NULL AS fresh
         FROM given g
         LEFT JOIN inserted i ON i.id = g.id
         LEFT JOIN ingest.emails e ON i.id IS NULL AND e.raw_sha256 = g.raw_sha256
       ), receipt AS (
         INSERT INTO ingest.email_receipts (email_id, channel, status)
         SELECT id, channel, CASE WHEN fresh THEN 'accepted' ELSE 'duplicate' END FROM email WHERE id IS NOT NULL
       )
       SELECT id, received_at, fresh FROM email ORDER BY ord`,
      [
        ids,
        arrivals.map(({ message }) => message.messageId),
        arrivals.map(({ message }) => message.bytes),
        arrivals.map(({ message }) => message.sha256),
        arrivals.map(({ message }) => message.bytes.length),
        arrivals.map(({ channel }) => channel),
      ],
    );
    return Promise.all(
      arrivals.map(({ message, channel }, i) => {
        const { id, received_at, fresh } = rows[i];
        if (id === null || received_at === null) return this.storeRacingCopy(message, channel);
        return { id, status: fresh ? 'accepted' : 'duplicate', stored: fresh ? { id, raw: message.bytes, received_at } : undefined };
      }),
    );
  }

  /**
   * Another copy was inserted while the statement above ran (by another
   * statement, or earlier in the same one): its INSERT skipped this copy,
   * but the statement's snapshot is older than the row. A new statement sees it.
   */
  private async storeRacingCopy(message: RawMessage, channel: IntakeChannel): Promise<StoreReceipt> {
    return (await this.repeatOf(message.sha256, channel))!;
  }

  /**
   * An arrival of bytes already stored, known by their sha256 only (or by the name of the object they came in,
   * rememberObject): recorded as a duplicate, or null when none is stored.
   */
  repeatOf(sha256: string, channel: IntakeChannel): Promise<StoreReceipt | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query(
        `SELECT id FROM ingest.emails WHERE raw_sha256 = $1 UNION ALL SELECT email_id FROM ingest.email_objects WHERE object_name = $1 LIMIT 1`,
        [sha256],
      );
      if (!row) return null;
      await tx.query(`INSERT INTO ingest.email_receipts (email_id, channel, status) VALUES ($1, $2, 'duplicate')`, [row.id, channel]);
      return { id: row.id as string, status: 'duplicate' as const };
    });
  }

  /** That the blob-bucket object `objectName` held the e-mail `emailId`, whose stored hash is another (repeatOf). */
  async rememberObject(objectName: string, emailId: string): Promise<void> {
    await this.db.query(`INSERT INTO ingest.email_objects (object_name, email_id) VALUES ($1, $2) ON CONFLICT (object_name) DO NOTHING`, [objectName, emailId]);
  }

  async load(id: string): Promise<StoredEmail | null> {
    const [row] = await this.db.query(`SELECT id, raw, received_at FROM ingest.emails WHERE id = $1`, [id]);
    return row ?? null;
  }
}

/** The arrivals in order, cut where a statement would carry more than STATEMENT_BYTES. */
function byStatement(arrivals: readonly Arrival[]): Arrival[][] {
  const chunks: Arrival[][] = [];
  let bytes = Infinity;
  for (const arrival of arrivals) {
    const size = arrival.message.bytes.length;
    if (bytes + size > STATEMENT_BYTES) {
      chunks.push([]);
      bytes = 0;
    }
    chunks[chunks.length - 1].push(arrival);
    bytes += size;
  }
  return chunks;
}
