import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_QUARANTINE_PAGE_LIMIT, DomainError, ErrorCode, type ListPage, type ListQuarantineParams, pageOf, type QuarantinedEmailView, type QuarantineRelease } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { DataSource } from 'typeorm';
import { headerRecipients } from '../parsing/header-recipients';
import { type ProcessedEmail, storedAuthentication } from '../processing/processed-email';

interface QuarantineRow {
  email_id: string;
  recipients: string[];
  quarantined_at: Date;
  received_at: Date;
  authenticated: boolean;
  from: string | null;
  subject: string | null;
  amount_cents: string | null;
  memo: string | null;
  reference_number: string | null;
  sender_name: string | null;
  auth_reasons: string[];
  parse_reasons: string[];
  merchant_id: string | null;
  disposition: QuarantineRelease['disposition'] | null;
  payment_id: string | null;
  released_at: Date | null;
  released_by: string | null;
}

interface ReleaseRow {
  merchant_id: string;
  disposition: QuarantineRelease['disposition'];
  payment_id: string;
  released_at: Date;
  released_by: string | null;
}

/**
 * Releases each e-mail of $1 that is quarantined to merchant $2[i]'s payment
 * $4[i] with disposition $3[i] (confirmed or manual_review), at the request
 * of operator $5[i] (null when none asked); nothing for one
 * whose merchant is null (nothing matched). The first release stands. Also
 * run within the hand-offs' statement (OutcomeRepository.recordHandoff), so
 * that a repeated hand-off that matches releases without a round trip of its own.
 */
export const RELEASE_IF_QUARANTINED = `INSERT INTO ingest.quarantine_releases (email_id, merchant_id, disposition, payment_id, released_by)
  SELECT r.email_id, r.merchant_id, r.disposition, r.payment_id, r.released_by
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS r(email_id, merchant_id, disposition, payment_id, released_by)
  JOIN ingest.quarantined_emails q ON q.email_id = r.email_id
  WHERE r.merchant_id IS NOT NULL
  ON CONFLICT (email_id) DO NOTHING`;

/** Quarantined e-mails (no merchant has their recipient as deposit address) and their releases; rows are never changed. */
@Injectable()
export class QuarantineRepository {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async quarantine(emailId: string, recipients: string[]): Promise<void> {
    await this.db.query(`INSERT INTO ingest.quarantined_emails (email_id, recipients) VALUES ($1, $2) ON CONFLICT (email_id) DO NOTHING`, [
      emailId,
      recipients,
    ]);
  }

  /**
   * Records that a quarantined e-mail was matched after all (a retry once the
   * address was registered). The first release stands; nothing happens for an
   * e-mail that was never quarantined. True only for the call whose row was
   * written: of two at once, the unique key makes the second wait for the
   * first and then write nothing, so only one may say it released the e-mail.
   */
  async release(emailId: string, release: Omit<QuarantineRelease, 'released_at'>): Promise<boolean> {
    const written: unknown[] = await this.db.query(`${RELEASE_IF_QUARANTINED} RETURNING email_id`, [
      [emailId],
      [release.merchant_id],
      [release.disposition],
      [release.payment_id],
      [release.released_by],
    ]);
    return written.length > 0;
  }

  async releaseOf(emailId: string): Promise<QuarantineRelease | null> {
    const [row]: ReleaseRow[] = await this.db.query(`SELECT * FROM ingest.quarantine_releases WHERE email_id = $1`, [emailId]);
    return row ? releaseView(row) : null;
  }

  /**
   * A quarantined e-mail as the NoticeHandler received it, to match it again; undefined when it is not quarantined.
   * An outcome recorded with no recipient at all (before a message the MIME parser read nothing of was routed by its
   * header section) takes them from its raw header section now, as processing does today: otherwise no release
   * could ever route it.
   */
  async processedEmail(emailId: string): Promise<ProcessedEmail | undefined> {
    const [row] = await this.db.query(
      `SELECT o.email_id, e.received_at, o.status, o.authentication, o.parse, o.recipients,
              CASE WHEN o.recipients = '{"to": [], "delivered_to": []}'::jsonb THEN e.raw END AS raw
       FROM ingest.quarantined_emails q
       JOIN ingest.email_outcomes o ON o.email_id = q.email_id
       JOIN ingest.emails e ON e.id = q.email_id
       WHERE q.email_id = $1`,
      [emailId],
    );
    if (!row) return undefined;
    const { raw, ...stored } = row;
    return {
      ...stored,
      authentication: storedAuthentication(row.authentication),
      received_at: toIso(row.received_at),
      recipients: raw ? headerRecipients(raw) : row.recipients,
    };
  }

  /** Newest first; open items by default, or those a retry released. */
  async list(params: ListQuarantineParams): Promise<ListPage<QuarantinedEmailView>> {
    const limit = params.limit ?? DEFAULT_QUARANTINE_PAGE_LIMIT;
    const before = params.starting_after ? await this.seqOf(params.starting_after) : null;
    const rows: QuarantineRow[] = await this.db.query(
      `SELECT q.email_id, q.recipients, q.quarantined_at, e.received_at, o.authenticated, o.authentication ->> 'from' AS "from",
              o.parse -> 'fields' ->> 'subject' AS subject, o.amount_cents, o.memo, o.reference_number,
              o.parse -> 'fields' ->> 'sender_name' AS sender_name, o.auth_reasons, o.parse_reasons,
              r.merchant_id, r.disposition, r.payment_id, r.released_at, r.released_by
       FROM ingest.quarantined_emails q
       JOIN ingest.email_outcomes o ON o.email_id = q.email_id
       JOIN ingest.emails e ON e.id = q.email_id
       LEFT JOIN ingest.quarantine_releases r ON r.email_id = q.email_id
       WHERE (r.email_id IS NULL) = $1 AND ($2::bigint IS NULL OR q.seq < $2::bigint)
       ORDER BY q.seq DESC
       LIMIT $3`,
      [(params.status ?? 'quarantined') === 'quarantined', before, limit + 1],
    );
    return pageOf(rows, limit, quarantineView);
  }

  private async seqOf(emailId: string): Promise<string> {
    const [row] = await this.db.query(`SELECT seq FROM ingest.quarantined_emails WHERE email_id = $1`, [emailId]);
    if (!row) throw new DomainError(ErrorCode.NotFound, 'Quarantined e-mail not found');
    return row.seq;
  }
}

const releaseView = (row: ReleaseRow): QuarantineRelease => ({
  released_at: toIso(row.released_at),
  merchant_id: row.merchant_id,
  disposition: row.disposition,
  payment_id: row.payment_id,
  released_by: row.released_by,
});

function quarantineView(row: QuarantineRow): QuarantinedEmailView {
  const released = row.released_at !== null;
  return {
    id: row.email_id,
    status: released ? 'released' : 'quarantined',
    received_at: toIso(row.received_at),
    quarantined_at: toIso(row.quarantined_at),
    recipients: row.recipients,
    from: row.from,
    authenticated: row.authenticated,
    subject: row.subject ?? '',
    amount_cents: row.amount_cents === null ? null : Number(row.amount_cents),
    memo: row.memo,
    reference_number: row.reference_number,
    sender_name: row.sender_name,
    reasons: [...row.auth_reasons, ...row.parse_reasons],
    release: released ? releaseView(row as ReleaseRow) : null,
  };
}
