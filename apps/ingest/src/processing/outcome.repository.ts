import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { HandoffResult } from './notice-handler';
import { type OutcomeStatus, type ProcessedEmail, storedAuthentication } from './processed-email';

export type Verdict = Omit<ProcessedEmail, 'status'>;

export interface RecordedOutcome {
  status: OutcomeStatus;
  duplicate_of: string | null;
}

/** Processing outcomes, reference-number claims and hand-offs; each written once, never changed. */
@Injectable()
export class OutcomeRepository {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  /**
   * Records the outcome of one e-mail, or returns null when another worker
   * already did. An authenticated notice claims its (reference number, kind)
   * in the same transaction; when another e-mail holds the claim, this one is
   * a duplicate. The unique key decides, so concurrent copies cannot both win.
   */
  async record(verdict: Verdict): Promise<RecordedOutcome | null> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('ingest.process:' || $1))`, [verdict.email_id]);
      const [done] = await tx.query(`SELECT 1 FROM ingest.email_outcomes WHERE email_id = $1`, [verdict.email_id]);
      if (done) return null;
      const duplicateOf = await this.claimReference(tx, verdict);
      const status: OutcomeStatus = duplicateOf
        ? 'duplicate'
        : !verdict.authentication.authenticated
          ? 'unauthenticated'
          : verdict.parse.status === 'parsed'
            ? 'parsed'
            : 'rejected';
      const { authentication: auth, parse } = verdict;
      await tx.query(
        `INSERT INTO ingest.email_outcomes
           (email_id, status, authenticated, auth_reasons, signing_domain, parse_reasons, kind, reference_number,
            amount_cents, memo, authentication, parse, recipients, duplicate_of)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          verdict.email_id,
          status,
          auth.authenticated,
          auth.authenticated ? [] : auth.reasons,
          auth.authenticated ? auth.signing_domain : null,
          parse.status === 'parsed' ? [] : parse.reasons,
          parse.fields.kind,
          parse.fields.reference_number,
          parse.fields.amount_cents,
          parse.status === 'parsed' ? parse.notice.memo : (parse.fields.memos[0] ?? null),
          JSON.stringify(auth),
          JSON.stringify(parse),
          JSON.stringify(verdict.recipients),
          duplicateOf,
        ],
      );
      return { status, duplicate_of: duplicateOf };
    });
  }

  /** The e-mail holding this notice's reference number, when it is another one. Only authenticated notices claim. */
  private async claimReference(tx: EntityManager, verdict: Verdict): Promise<string | null> {
    const reference = verdict.parse.fields.reference_number;
    if (!verdict.authentication.authenticated || !reference) return null;
    const kind = verdict.parse.fields.kind;
    const claimed = await tx.query(
      `INSERT INTO ingest.notice_references (reference_number, kind, email_id) VALUES ($1, $2, $3)
       ON CONFLICT (reference_number, kind) DO NOTHING RETURNING email_id`,
      [reference, kind, verdict.email_id],
    );
    if (claimed.length > 0) return null;
    const [holder] = await tx.query(`SELECT email_id FROM ingest.notice_references WHERE reference_number = $1 AND kind = $2`, [
      reference,
      kind,
    ]);
    return holder.email_id === verdict.email_id ? null : holder.email_id;
  }

  async recordHandoff(emailId: string, result: HandoffResult): Promise<void> {
    await this.db.query(
      `INSERT INTO ingest.notice_handoffs (email_id, disposition) VALUES ($1, $2) ON CONFLICT (email_id) DO NOTHING`,
      [emailId, result.disposition],
    );
  }

  /** Stored e-mails that were never processed (a crash, or a DNS failure to retry), oldest first. */
  async unprocessed(limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT e.id FROM ingest.emails e
       WHERE NOT EXISTS (SELECT 1 FROM ingest.email_outcomes o WHERE o.email_id = e.id)
       ORDER BY e.received_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /** Outcomes recorded more than `graceSeconds` ago whose hand-off never completed. */
  async notHandedOff(graceSeconds: number, limit: number): Promise<ProcessedEmail[]> {
    const rows: { email_id: string; received_at: Date; status: ProcessedEmail['status']; authentication: ProcessedEmail['authentication']; parse: ProcessedEmail['parse']; recipients: ProcessedEmail['recipients'] }[] =
      await this.db.query(
        `SELECT o.email_id, e.received_at, o.status, o.authentication, o.parse, o.recipients
         FROM ingest.email_outcomes o JOIN ingest.emails e ON e.id = o.email_id
         WHERE o.status <> 'duplicate' AND o.processed_at < now() - make_interval(secs => $1)
           AND NOT EXISTS (SELECT 1 FROM ingest.notice_handoffs h WHERE h.email_id = o.email_id)
         ORDER BY o.processed_at LIMIT $2`,
        [graceSeconds, limit],
      );
    return rows.map((row) => ({ ...row, authentication: storedAuthentication(row.authentication), received_at: row.received_at.toISOString() }));
  }
}
