import type { MatchingDisposition, RecordTransferCommand, TransferEvidence } from '@pp/contracts';
import type { AuthenticationFailure } from '../authentication/authentication.types';
import type { NoticeKind, NoticeParseResult, ParseReason } from '../parsing/notice.types';
import { clipText } from '../parsing/text-normalizer';
import type { ProcessedEmail } from '../processing/processed-email';
import { clipReasons } from './evidence-reasons';

/** What record-transfer needs, less the merchant and its deposit address (resolved from the recipients). */
export type TransferDraft = Omit<RecordTransferCommand, 'merchant_id' | 'livemode' | 'evidence'> & {
  evidence: Omit<TransferEvidence, 'deposit_address'>;
};

export type MatchingPlan =
  | { action: 'skip'; disposition: Extract<MatchingDisposition, 'no_payment' | 'not_a_notice'> }
  | { action: 'record'; recipients: string[]; transfer: TransferDraft };

/** Interac notices that say no money arrived: never a payment, whoever sent them. */
const NOT_MONEY: ReadonlySet<NoticeKind> = new Set(['not_deposited', 'reminder', 'cancelled', 'expired', 'declined', 'money_request', 'outgoing']);

/**
 * What an e-mail whose authentication and reading both gave up (a deadline,
 * or a worker that died) carries: nothing shows it is not Interac's, so it is
 * reviewed. Only such an e-mail: its sender must make both workers give up on
 * it, by running past each deadline or by killing each worker (exhausting its
 * heap, which can happen well before the deadline), and either way each
 * message costs the service a worker of each pool, stopped and replaced;
 * mail that is plainly not Interac's is answered fast and dropped. A worker
 * that died is kept with the deadlines: that proves nothing about the mail
 * either, and a genuine notice whose worker died must not be dropped unseen.
 */
const AUTHENTICATION_GAVE_UP: ReadonlySet<AuthenticationFailure> = new Set(['auth_timeout', 'auth_failed']);
const READING_GAVE_UP: ReadonlySet<ParseReason> = new Set(['parse_timeout', 'parse_failed']);

/** Recorded for a payer the notice does not name (record-transfer requires a name). */
export const UNKNOWN_SENDER = 'Unknown sender';

const MAX = { sender_name: 255, sender_email: 320, comment: 2000, reference_number: 128, address: 320 } as const;
/** A To or Delivered-To value: a display name and one address in angle brackets. */
const MAX_RECIPIENT_VALUE = 1000;

/** Addresses looked up per notice: the merchant lookup takes at most 50, and a forged notice may list thousands. */
const MAX_RECIPIENTS = 20;

/**
 * What matching does with one processed e-mail, decided from the e-mail
 * alone (docs/INGEST-FORMATS.md, "Matching"):
 * - a not-deposited, reminder, cancelled, expired or declined notice, a money request, or a notice of the merchant's
 *   own transfer: no payment;
 * - unauthenticated mail that does not read as an Interac notice at all: no payment
 *   (it is kept as evidence, but nothing claims money), unless neither its
 *   authentication nor its reading could finish;
 * - anything else claims money and is recorded with the evidence established
 *   here (authentication, signed recipient, parse reasons): record-transfer's
 *   transfer-match policy alone decides whether it confirms. The amount is the
 *   one amount the parser read, or 0 when it read none or several that
 *   disagree (never a guess). The reasons are clipped to what record-transfer
 *   takes (evidence-reasons.ts), or it would refuse the notice at every repeat;
 * - a notice whose kind the parser does not know is reviewed, but names no memo: whatever Interac notice it is (a new
 *   wording of a money request, say), nothing shows it is a deposit, so it must never be linked to a session, whose
 *   verification would complete the order unpaid.
 */
export function planMatching(email: ProcessedEmail): MatchingPlan {
  const { authentication, parse } = email;
  const fields = parse.fields;
  if (NOT_MONEY.has(fields.kind)) return { action: 'skip', disposition: 'no_payment' };
  if (fields.kind === 'unknown' && !authentication.authenticated && !unfinished(email)) return { action: 'skip', disposition: 'not_a_notice' };

  const notice = parse.status === 'parsed' ? parse.notice : null;
  return {
    action: 'record',
    recipients: recipientsOf(email),
    transfer: {
      email_id: email.email_id,
      memo: notice?.memo ?? (fields.kind !== 'unknown' && fields.memos.length === 1 ? fields.memos[0] : null),
      amount: notice?.amount_cents ?? fields.amount_cents ?? 0,
      sender_name: clip(notice?.sender_name ?? fields.sender_name, MAX.sender_name) || UNKNOWN_SENDER,
      sender_email: clip(fields.sender_email, MAX.sender_email) || null,
      comment: clip(fields.comment, MAX.comment) || null,
      reference_number: clip(fields.reference_number, MAX.reference_number) || null,
      evidence: {
        authenticated: authentication.authenticated,
        authentication_reasons: authentication.authenticated ? [] : clipReasons(authentication.reasons),
        signed_recipient: authentication.recipient.signed_recipient,
        recipient_reasons: authentication.recipient.reasons,
        parse_reasons: parseReasons(parse),
      },
    },
  };
}

/** The policy confirms on no reason: a parse that is not complete must say so even when it was recorded without one. */
function parseReasons(parse: NoticeParseResult): ParseReason[] {
  if (parse.status === 'parsed') return [];
  return parse.reasons.length > 0 ? clipReasons(parse.reasons) : ['parse_incomplete'];
}

/** Whether neither the authentication nor the reading of the e-mail finished, so that nothing is known of it. */
function unfinished({ authentication, parse }: ProcessedEmail): boolean {
  const authenticationGaveUp = !authentication.authenticated && authentication.reasons.some((reason) => AUTHENTICATION_GAVE_UP.has(reason));
  return authenticationGaveUp && parse.status === 'rejected' && parse.reasons.some((reason) => READING_GAVE_UP.has(reason));
}

/**
 * The addresses that may route the notice to a merchant, most trustworthy
 * first: the signed recipient, then every To mailbox (postal-mime merges all
 * To headers, signed or not), then Delivered-To (added by the receiving
 * server, e.g. when the merchant forwards its mail). Any of them may route a
 * notice to a merchant's review queue; only the signed recipient can confirm
 * it (the transfer-match policy). Lowercased, bare addresses, each once, at
 * most MAX_RECIPIENTS.
 */
export function recipientsOf(email: ProcessedEmail): string[] {
  // Neither side of the @ may hold another: the pattern then reads a value once, where "<@@@…" made it backtrack
  // quadratically (minutes on the event loop for a header of @s). Values too long to name one mailbox are dropped first.
  const bare = (value: string) => (/<([^<>\s@]+@[^<>\s@]+)>/.exec(value)?.[1] ?? value).trim().toLowerCase();
  const signed = email.authentication.recipient.signed_recipient;
  const values = [...(signed ? [signed] : []), ...email.recipients.to, ...email.recipients.delivered_to];
  const all = values.filter((value) => value.length <= MAX_RECIPIENT_VALUE).map(bare);
  const addresses = all.filter((address) => address.length <= MAX.address && /^[^\s@]+@[^\s@]+$/.test(address));
  return [...new Set(addresses)].slice(0, MAX_RECIPIENTS);
}

/** Trimmed, then at most `length` UTF-16 units, never ending in half a surrogate pair (clipText). */
const clip = (text: string | null | undefined, length: number): string => clipText((text ?? '').trim(), length);
