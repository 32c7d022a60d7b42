import { Inject, Injectable } from '@nestjs/common';
import { type EmailEvidenceView, NOTICE_TEXT_SHOWN } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { DataSource } from 'typeorm';
import type { AuthenticationResult } from '../authentication/authentication.types';
import type { NoticeParseResult } from '../parsing/notice.types';
import { clipText } from '../parsing/text-normalizer';
import { storedAuthentication } from '../processing/processed-email';

interface EvidenceRow {
  id: string;
  received_at: Date;
  channel: EmailEvidenceView['channel'];
  message_id: string | null;
  size_bytes: number;
  status: EmailEvidenceView['status'];
  authentication: AuthenticationResult;
  parse: NoticeParseResult;
  recipients: { to: string[]; delivered_to: string[] };
  auth_reasons: string[];
  signing_domain: string | null;
  parse_reasons: string[];
  kind: string;
  amount_cents: string | null;
  memo: string | null;
  reference_number: string | null;
  duplicate_of: string | null;
}

/** Reads one stored e-mail with the outcome its processing recorded (never the raw bytes). */
@Injectable()
export class EmailEvidenceRepository {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async find(emailId: string): Promise<EmailEvidenceView | undefined> {
    const [row]: EvidenceRow[] = await this.db.query(
      `SELECT e.id, e.received_at, e.channel, e.message_id, e.size_bytes, o.status, o.authentication, o.parse, o.recipients,
              o.auth_reasons, o.signing_domain, o.parse_reasons, o.kind, o.amount_cents, o.memo, o.reference_number, o.duplicate_of
       FROM ingest.emails e
       JOIN ingest.email_outcomes o ON o.email_id = e.id
       WHERE e.id = $1`,
      [emailId],
    );
    return row ? evidenceView(row) : undefined;
  }
}

function evidenceView(row: EvidenceRow): EmailEvidenceView {
  const authentication = storedAuthentication(row.authentication);
  return {
    id: row.id,
    received_at: toIso(row.received_at),
    channel: row.channel,
    message_id: row.message_id,
    size_bytes: row.size_bytes,
    from: authentication.from,
    subject: row.parse.fields.subject,
    status: row.status,
    authenticated: authentication.authenticated,
    signing_domain: row.signing_domain,
    authentication_reasons: row.auth_reasons,
    signed_recipient: authentication.recipient.signed_recipient,
    recipient_reasons: authentication.recipient.reasons,
    to: row.recipients.to,
    delivered_to: row.recipients.delivered_to,
    kind: row.kind,
    sender_name: row.parse.fields.sender_name,
    amount_cents: row.amount_cents === null ? null : Number(row.amount_cents),
    memo: row.memo,
    reference_number: row.reference_number,
    message: row.parse.fields.text === undefined ? null : row.parse.fields.comment,
    notice_text: noticeText(row.parse),
    parse_reasons: row.parse_reasons,
    duplicate_of: row.duplicate_of,
  };
}

/** Outcomes recorded before the Message was read apart kept the whole text as the comment, and no `text`. */
function noticeText(parse: NoticeParseResult): string | null {
  const text = parse.fields.text ?? parse.fields.comment;
  return text ? clipText(text, NOTICE_TEXT_SHOWN) : null;
}
