import type { MatchingDisposition, RecordTransferCommand } from '@pp/contracts';
import type { NoticeKind } from '../parsing/notice.types';
import type { ProcessedEmail } from '../processing/processed-email';

/** What record-transfer needs, less the merchant (resolved from the recipients). */
export type TransferDraft = Omit<RecordTransferCommand, 'merchant_id' | 'livemode'>;

export type MatchingPlan =
  | { action: 'skip'; disposition: Extract<MatchingDisposition, 'no_payment' | 'not_a_notice'> }
  | { action: 'record'; recipients: string[]; transfer: TransferDraft };

/** Interac notices that say no money arrived: never a payment, whoever sent them. */
const NOT_MONEY: ReadonlySet<NoticeKind> = new Set(['not_deposited', 'reminder', 'cancelled', 'expired', 'declined']);

/** Says the mail did not prove it came from Interac; the authenticator's own reasons follow it. */
export const UNAUTHENTICATED_SENDER = 'unauthenticated_sender';

/** Recorded for a payer the notice does not name (record-transfer requires a name). */
export const UNKNOWN_SENDER = 'Unknown sender';

const MAX = { sender_name: 255, sender_email: 320, comment: 2000, reference_number: 128 } as const;

/**
 * What matching does with one processed e-mail, decided from the e-mail
 * alone (docs/INGEST-FORMATS.md, "Matching"):
 * - a not-deposited, reminder, cancelled, expired or declined notice: no payment;
 * - unauthenticated mail that does not read as an Interac notice at all: no payment
 *   (it is kept as evidence, but nothing claims money);
 * - anything else claims money and is recorded: a clean authenticated deposit
 *   may confirm; every doubt travels as a review reason, so record-transfer
 *   makes it REQUIRES_MANUAL_REVIEW. The amount is the one amount the parser
 *   read, or 0 when it read none or several that disagree (never a guess).
 */
export function planMatching(email: ProcessedEmail): MatchingPlan {
  const { authentication, parse } = email;
  const fields = parse.fields;
  if (NOT_MONEY.has(fields.kind)) return { action: 'skip', disposition: 'no_payment' };
  if (fields.kind === 'unknown' && !authentication.authenticated) return { action: 'skip', disposition: 'not_a_notice' };

  const notice = parse.status === 'parsed' ? parse.notice : null;
  const reasons = [
    ...(authentication.authenticated ? [] : [UNAUTHENTICATED_SENDER, ...authentication.reasons]),
    ...(parse.status === 'rejected' ? parse.reasons : []),
  ];
  return {
    action: 'record',
    recipients: recipientsOf(email),
    transfer: {
      email_id: email.email_id,
      memo: notice?.memo ?? (fields.memos.length === 1 ? fields.memos[0] : null),
      amount: notice?.amount_cents ?? fields.amount_cents ?? 0,
      sender_name: clip(notice?.sender_name ?? fields.sender_name, MAX.sender_name) || UNKNOWN_SENDER,
      sender_email: clip(fields.sender_email, MAX.sender_email) || null,
      comment: clip(fields.comment, MAX.comment) || null,
      reference_number: clip(fields.reference_number, MAX.reference_number) || null,
      review_reason: null,
      review_reasons: [...new Set(reasons)],
    },
  };
}

/**
 * The addresses that may name the merchant, most trustworthy first: To (covered
 * by the DKIM signature of an authenticated notice), then Delivered-To (added
 * by the receiving mail server, e.g. when the merchant forwards its mail).
 * Lowercased, bare addresses, each once.
 */
export function recipientsOf(email: ProcessedEmail): string[] {
  const bare = (value: string) => (/<([^<>\s]+@[^<>\s]+)>/.exec(value)?.[1] ?? value).trim().toLowerCase();
  const all = [...email.recipients.to, ...email.recipients.delivered_to].map(bare);
  return [...new Set(all.filter((address) => /^[^\s@]+@[^\s@]+$/.test(address)))];
}

const clip = (text: string | null | undefined, length: number): string => (text ?? '').trim().slice(0, length);
