import { Inject, Injectable } from '@nestjs/common';
import { storableJson } from '@pp/kernel';
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
   * already did. An authenticated notice claims, with its outcome, its
   * (reference number, kind) and each of its verified DKIM signatures; when
   * another e-mail holds one of these claims, this one is a duplicate. The
   * signatures are claimed because they need no parsing: a copy whose
   * reference number cannot be read (a line bomb past the parse deadline)
   * still carries them. The unique keys decide, so concurrent copies cannot both win.
   */
  async record(verdict: Verdict): Promise<RecordedOutcome | null> {
    try {
      return await this.insertOutcome(verdict);
    } catch (error) {
      // Another e-mail took a claim after this statement's snapshot was taken, and has committed (the insert waited
      // for it): the statement rolled back whole, and a new one sees the claim and records a duplicate. Claims are
      // never removed, so the second statement cannot meet the same conflict.
      if (!isClaimTaken(error)) throw error;
      return this.insertOutcome(verdict);
    }
  }

  private async insertOutcome(verdict: Verdict): Promise<RecordedOutcome | null> {
    return (await this.insertOutcomes([verdict])).get(verdict.email_id) ?? null;
  }

  /**
   * Records the outcomes of several e-mails in one statement, with the same
   * effect as `record` on each in turn; one answer per verdict, in order (null
   * for an e-mail whose outcome is already recorded, also by an earlier
   * verdict of the same call). When two of them make one claim (copies of one
   * notice arriving together), or another writer takes one meanwhile, the
   * statement fails whole and they are recorded one by one, where the first
   * holds the claim and the others are its duplicates.
   */
  async recordAll(verdicts: readonly Verdict[]): Promise<(RecordedOutcome | null)[]> {
    const isFirst = firstPerEmail(verdicts.map((verdict) => verdict.email_id));
    const firsts = verdicts.filter((_, i) => isFirst[i]);
    let recorded: Map<string, RecordedOutcome>;
    try {
      recorded = await this.insertOutcomes(firsts);
    } catch (error) {
      if (!isClaimTaken(error)) throw error;
      recorded = new Map();
      for (const verdict of firsts) {
        const outcome = await this.record(verdict);
        if (outcome) recorded.set(verdict.email_id, outcome);
      }
    }
    return verdicts.map((verdict, i) => (isFirst[i] ? (recorded.get(verdict.email_id) ?? null) : null));
  }

  /**
   * One statement, so its writes commit or roll back together. The outcome's
   * primary key picks the one writer per e-mail (ON CONFLICT waits for a
   * concurrent writer, whatever the snapshot); claims are inserted only from
   * an outcome this statement wrote, so a loser leaves none. A claim taken
   * after the snapshot, or twice within the statement, fails its plain
   * INSERT (see record and recordAll). An e-mail whose claims others hold
   * is the duplicate of its reference number's holder, else of the holder
   * of one of its signatures. Rows go in by e-mail id, so two
   * statements writing the same e-mails (two replicas, or the sweeper and
   * an inline run) wait for each other in one order instead of deadlocking.
   */
  private async insertOutcomes(verdicts: readonly Verdict[]): Promise<Map<string, RecordedOutcome>> {
    const rows: (RecordedOutcome & { email_id: string })[] = await this.db.query(
      `WITH v AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(
           email_id text, status text, authenticated boolean, auth_reasons text[], signing_domain text,
           parse_reasons text[], kind text, reference_number text, amount_cents bigint, memo text,
           authentication jsonb, parse jsonb, recipients jsonb, claimed_reference text, claimed_signatures jsonb)
       ), signature AS (
         SELECT v.email_id, c.signing_domain, c.b_sha256
         FROM v, jsonb_to_recordset(v.claimed_signatures) AS c(signing_domain text, b_sha256 text)
       ), holder AS (
         SELECT DISTINCT ON (claimant) claimant, holder FROM (
           SELECT v.email_id AS claimant, r.email_id AS holder, 0 AS rank
           FROM v JOIN ingest.notice_references r ON r.reference_number = v.claimed_reference AND r.kind = v.kind
           UNION ALL
           SELECT c.email_id, s.email_id, 1
           FROM signature c JOIN ingest.notice_signatures s ON s.signing_domain = c.signing_domain AND s.b_sha256 = c.b_sha256
         ) AS held
         ORDER BY claimant, rank, holder
       ), outcome AS (
         INSERT INTO ingest.email_outcomes
           (email_id, status, authenticated, auth_reasons, signing_domain, parse_reasons, kind, reference_number,
            amount_cents, memo, authentication, parse, recipients, duplicate_of)
         SELECT v.email_id, CASE WHEN h.holder IS NOT NULL THEN 'duplicate' ELSE v.status END, v.authenticated, v.auth_reasons,
                v.signing_domain, v.parse_reasons, v.kind, v.reference_number, v.amount_cents, v.memo, v.authentication, v.parse,
                v.recipients, h.holder
         FROM v LEFT JOIN holder h ON h.claimant = v.email_id
         ORDER BY v.email_id
         ON CONFLICT (email_id) DO NOTHING
         RETURNING email_id, status, duplicate_of
       ), claim AS (
         INSERT INTO ingest.notice_references (reference_number, kind, email_id)
         SELECT v.claimed_reference, v.kind, v.email_id FROM outcome JOIN v ON v.email_id = outcome.email_id
         WHERE v.claimed_reference IS NOT NULL AND outcome.duplicate_of IS NULL
       ), signature_claim AS (
         INSERT INTO ingest.notice_signatures (signing_domain, b_sha256, email_id)
         SELECT c.signing_domain, c.b_sha256, c.email_id FROM outcome JOIN signature c ON c.email_id = outcome.email_id
         WHERE outcome.duplicate_of IS NULL
       )
       SELECT email_id, status, duplicate_of FROM outcome`,
      // storableJson: a NUL or half a surrogate pair anywhere in a verdict (a header the parsers pass on as read)
      // would fail the statement, and with it every e-mail of the batch, at every retry.
      [storableJson(verdicts.map((verdict) => outcomeRow(verdict)))],
    );
    return new Map(rows.map(({ email_id, status, duplicate_of }) => [email_id, { status, duplicate_of }]));
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
    const isFirst = firstPerEmail(all.map((handoff) => handoff.emailId));
    const batch = all.filter((_, i) => isFirst[i]);
    await this.db.query(
      `WITH released AS (${RELEASE_IF_QUARANTINED})
       INSERT INTO ingest.notice_handoffs (email_id, disposition)
       SELECT * FROM unnest($1::text[], $3::text[]) AS h(email_id, disposition) ORDER BY email_id
       ON CONFLICT (email_id) DO NOTHING`,
      [
        batch.map(({ emailId }) => emailId),
        batch.map(({ result }) => result.payment?.merchant_id ?? null),
        batch.map(({ result }) => result.disposition),
        batch.map(({ result }) => result.payment?.payment_id ?? null),
        batch.map(() => null),
      ],
    );
  }

  /**
   * Stored e-mails received since `since` (all when null) that were never
   * processed (a crash, or a DNS failure to retry), oldest first, and the
   * database's time of the scan.
   */
  async unprocessed(limit: number, since: Date | null, after: SweepCursor | null = null): Promise<SweepScan<string>> {
    const rows: { scanned_at: Date; id: string | null; at: Date | null }[] = await this.scan(
      `SELECT statement_timestamp() AS scanned_at, c.id, c.received_at AS at
       FROM (SELECT) AS scan
       LEFT JOIN LATERAL (
         SELECT e.id, e.received_at FROM ingest.emails e
         WHERE e.received_at >= $2 AND ($3::timestamptz IS NULL OR (e.received_at, e.id) > ($3, $4::text))
           AND NOT EXISTS (SELECT 1 FROM ingest.email_outcomes o WHERE o.email_id = e.id)
         ORDER BY e.received_at, e.id LIMIT $1
       ) AS c ON true`,
      [limit, since ?? '-infinity', after?.at ?? null, after?.id ?? null],
    );
    return sweepScan(rows, (row) => row.id, (id) => id);
  }

  /**
   * Outcomes recorded since `since` (all when null) and more than
   * `graceSeconds` ago whose hand-off never completed, oldest first, and the
   * database's time of the scan.
   */
  async notHandedOff(graceSeconds: number, limit: number, since: Date | null, after: SweepCursor | null = null): Promise<SweepScan<ProcessedEmail>> {
    const rows: {
      scanned_at: Date;
      at: Date | null;
      email_id: string;
      received_at: Date;
      status: ProcessedEmail['status'];
      authentication: ProcessedEmail['authentication'];
      parse: ProcessedEmail['parse'];
      recipients: ProcessedEmail['recipients'];
    }[] = await this.scan(
      `SELECT statement_timestamp() AS scanned_at, c.*
       FROM (SELECT) AS scan
       LEFT JOIN LATERAL (
         SELECT o.processed_at AS at, o.email_id, e.received_at, o.status, o.authentication, o.parse, o.recipients
         FROM ingest.email_outcomes o JOIN ingest.emails e ON e.id = o.email_id
         WHERE o.processed_at >= $3 AND o.processed_at < statement_timestamp() - make_interval(secs => $1) AND o.status <> 'duplicate'
           AND ($4::timestamptz IS NULL OR (o.processed_at, o.email_id) > ($4, $5::text))
           AND NOT EXISTS (SELECT 1 FROM ingest.notice_handoffs h WHERE h.email_id = o.email_id)
         ORDER BY o.processed_at, o.email_id LIMIT $2
       ) AS c ON true`,
      [graceSeconds, limit, since ?? '-infinity', after?.at ?? null, after?.id ?? null],
    );
    return sweepScan(
      rows,
      ({ email_id, received_at, status, authentication, parse, recipients }) =>
        email_id ? { email_id, status, parse, recipients, authentication: storedAuthentication(authentication), received_at: received_at.toISOString() } : null,
      (email) => email.email_id,
    );
  }

  /**
   * A sweeper scan, planned for its own window each time: a generic plan
   * (which a prepared statement settles on after five runs) cannot tell a
   * window of minutes from the whole history, and hash-joins every outcome.
   */
  private scan<R>(text: string, values: unknown[]): Promise<R[]> {
    return this.db.transaction(async (tx) => {
      await tx.query('SET LOCAL plan_cache_mode = force_custom_plan');
      return tx.query(text, values);
    });
  }
}

/** For each e-mail id in order: whether it is that e-mail's first (a later one repeats it). */
function firstPerEmail(emailIds: readonly string[]): boolean[] {
  const seen = new Set<string>();
  return emailIds.map((id) => {
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** What one sweeper scan found (oldest first), the oldest one's timestamp, and when the database ran it. */
export interface SweepScan<T> {
  found: T[];
  oldest: Date | null;
  scannedAt: Date;
  /** The page's last row, for the next page to start after; null when the page was empty. */
  last: SweepCursor | null;
}

/** A row's place in a scan's order (its time, then its id). */
export interface SweepCursor {
  at: Date;
  id: string;
}

/** A scan's rows (one with nulls when it found nothing, from the LEFT JOIN that carries the scan's time). */
function sweepScan<R extends { scanned_at: Date; at: Date | null }, T>(rows: R[], read: (row: R) => T | null, idOf: (item: T) => string): SweepScan<T> {
  const found = rows.flatMap((row) => {
    const item = row.at ? read(row) : null;
    return item ? [{ item, at: row.at! }] : [];
  });
  const last = found.at(-1);
  return { found: found.map(({ item }) => item), oldest: rows[0].at, scannedAt: rows[0].scanned_at, last: last ? { at: last.at, id: idOf(last.item) } : null };
}

/** The columns of one outcome, as insertOutcomes reads them from JSON. */
function outcomeRow(verdict: Verdict) {
  const { authentication: auth, parse } = verdict;
  const status: OutcomeStatus = !auth.authenticated ? 'unauthenticated' : parse.status === 'parsed' ? 'parsed' : 'rejected';
  return {
    email_id: verdict.email_id,
    status,
    authenticated: auth.authenticated,
    auth_reasons: auth.authenticated ? [] : auth.reasons,
    signing_domain: auth.authenticated ? auth.signing_domain : null,
    parse_reasons: parse.status === 'parsed' ? [] : parse.reasons,
    kind: parse.fields.kind,
    reference_number: parse.fields.reference_number,
    amount_cents: parse.fields.amount_cents,
    memo: parse.status === 'parsed' ? parse.notice.memo : (parse.fields.memos[0] ?? null),
    authentication: auth,
    parse,
    recipients: verdict.recipients,
    // Only authenticated notices claim: a forgery must not make the genuine notice a duplicate.
    claimed_reference: (auth.authenticated && parse.fields.reference_number) || null,
    claimed_signatures: auth.authenticated ? auth.signatures : [],
  };
}

/** The claims an outcome takes with it: a violation of one means another e-mail took it meanwhile. */
const CLAIM_KEYS: ReadonlySet<string> = new Set(['notice_references_pkey', 'notice_signatures_pkey']);

const isClaimTaken = (error: unknown): boolean => CLAIM_KEYS.has(violatedUniqueConstraint(error) ?? '');
