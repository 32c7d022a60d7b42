import { Inject, Injectable } from '@nestjs/common';
import { Batcher, violatedUniqueConstraint } from '@pp/platform';
import { DataSource } from 'typeorm';
import { RELEASE_IF_QUARANTINED } from '../matching/quarantine.repository';
import type { HandoffResult } from './notice-handler';
import { type OutcomeStatus, type ProcessedEmail, storedAuthentication } from './processed-email';

export type Verdict = Omit<ProcessedEmail, 'status'>;

interface Handoff {
  emailId: string;
  result: HandoffResult;
}

export interface RecordedOutcome {
  status: OutcomeStatus;
  duplicate_of: string | null;
}

/** Processing outcomes, reference-number claims and hand-offs; each written once, never changed. */
@Injectable()
export class OutcomeRepository {
  /** Hand-offs that end at the same moment are recorded in one statement. */
  private readonly handoffs = new Batcher<Handoff>((batch) => this.insertHandoffs(batch));

  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  /**
   * Records the outcome of one e-mail, or returns null when another worker
   * already did. An authenticated notice claims its (reference number, kind)
   * with its outcome; when another e-mail holds the claim, this one is a
   * duplicate. The unique keys decide, so concurrent copies cannot both win.
   */
  async record(verdict: Verdict): Promise<RecordedOutcome | null> {
    try {
      return await this.insertOutcome(verdict);
    } catch (error) {
      // Another e-mail claimed the reference number after this statement's snapshot was taken, and has committed
      // (the insert waited for it): the statement rolled back whole, and a new one sees the claim and records a
      // duplicate. Claims are never removed, so the second statement cannot meet the same conflict.
      if (violatedUniqueConstraint(error) !== 'notice_references_pkey') throw error;
      return this.insertOutcome(verdict);
    }
  }

  /**
   * One statement, so its writes commit or roll back together. The outcome's
   * primary key picks the one writer per e-mail (ON CONFLICT waits for a
   * concurrent writer, whatever the snapshot); the claim is inserted only
   * from the outcome this statement wrote, so a loser leaves no claim. A
   * claim taken after the snapshot fails the plain INSERT (see record).
   */
  private async insertOutcome(verdict: Verdict): Promise<RecordedOutcome | null> {
    const { authentication: auth, parse } = verdict;
    const status: OutcomeStatus = !auth.authenticated ? 'unauthenticated' : parse.status === 'parsed' ? 'parsed' : 'rejected';
    // Only authenticated notices claim: a forgery must not make the genuine notice a duplicate.
    const claimedReference = (auth.authenticated && parse.fields.reference_number) || null;
    const [row]: RecordedOutcome[] = await this.db.query(
      `WITH holder AS (
         SELECT email_id FROM ingest.notice_references WHERE reference_number = $14 AND kind = $7
       ), outcome AS (
         INSERT INTO ingest.email_outcomes
           (email_id, status, authenticated, auth_reasons, signing_domain, parse_reasons, kind, reference_number,
            amount_cents, memo, authentication, parse, recipients, duplicate_of)
         VALUES ($1, CASE WHEN EXISTS (SELECT 1 FROM holder) THEN 'duplicate' ELSE $2 END, $3, $4, $5, $6, $7, $8,
                 $9, $10, $11, $12, $13, (SELECT email_id FROM holder))
         ON CONFLICT (email_id) DO NOTHING
         RETURNING status, duplicate_of
       ), claim AS (
         INSERT INTO ingest.notice_references (reference_number, kind, email_id)
         SELECT $14, $7, $1 FROM outcome WHERE $14::text IS NOT NULL AND outcome.duplicate_of IS NULL
       )
       SELECT status, duplicate_of FROM outcome`,
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
        claimedReference,
      ],
    );
    return row ?? null;
  }

  /**
   * Records the hand-off once per e-mail. A matched notice that an earlier
   * hand-off quarantined (a repeat after a crash, once its merchant
   * registered the address) is released in the same statement. Resolves once
   * it is stored, with the other hand-offs of its batch.
   */
  recordHandoff(emailId: string, result: HandoffResult): Promise<void> {
    return this.handoffs.add({ emailId, result });
  }

  private async insertHandoffs(all: Handoff[]): Promise<void> {
    // The first hand-off of an e-mail stands, also within one batch (the release's join keeps no order).
    const batch = all.filter((handoff, i) => all.findIndex((other) => other.emailId === handoff.emailId) === i);
    await this.db.query(
      `WITH released AS (${RELEASE_IF_QUARANTINED})
       INSERT INTO ingest.notice_handoffs (email_id, disposition)
       SELECT * FROM unnest($1::text[], $3::text[]) ON CONFLICT (email_id) DO NOTHING`,
      [
        batch.map(({ emailId }) => emailId),
        batch.map(({ result }) => result.payment?.merchant_id ?? null),
        batch.map(({ result }) => result.disposition),
        batch.map(({ result }) => result.payment?.payment_id ?? null),
      ],
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
