import { findMemos } from '@pp/kernel';
import { readWholeAmount, type AmountRead } from './amount-parser';
import { readDateHeader, readLeadingDate } from './date-parser';
import { extractBodyAmounts, extractLabelledValues, extractReference, extractSenderName } from './field-extractor';
import { readMime, type MimeFacts } from './mime-reader';
import { bodySaysDeposited, classifySubject } from './notice-classifier';
import type { NoticeFields, NoticeParseResult, ParseReason } from './notice.types';
import { flattenWhitespace } from './text-normalizer';

/** Parses one raw message. Never throws: anything it cannot read becomes a reason. */
export async function parseNotice(raw: Uint8Array): Promise<NoticeParseResult> {
  const facts = await readMime(raw);
  return facts ? extractNotice(facts) : unreadableNotice(null);
}

/** Reads the notice out of a decoded message. Pure; never throws. */
export function extractNotice(facts: MimeFacts): NoticeParseResult {
  try {
    return decide(read(facts));
  } catch {
    // A defect here must not lose the message: it goes to manual review like any unreadable one.
    return unreadableNotice(facts);
  }
}

interface Reading {
  fields: NoticeFields;
  subjectAmount: AmountRead;
  bodyAmounts: AmountRead[];
  bodyDeposited: boolean;
}

function read(facts: MimeFacts): Reading {
  const subject = flattenWhitespace(facts.subject);
  const classification = classifySubject(subject);
  const values = extractLabelledValues(facts.text);
  const flatBody = flattenWhitespace(facts.text);
  const subjectAmount = classification.subjectAmount === null ? null : readWholeAmount(classification.subjectAmount);
  const bodyAmounts = extractBodyAmounts(values, flatBody);
  const stated = [subjectAmount, ...bodyAmounts].filter((amount) => amount !== null);
  const distinct = new Set(stated);
  const [only] = distinct;
  return {
    subjectAmount,
    bodyAmounts,
    bodyDeposited: bodySaysDeposited(flatBody),
    fields: {
      kind: classification.kind,
      language: classification.language,
      amount_cents: distinct.size === 1 && typeof only === 'number' ? only : null,
      amounts: { subject: asCents(subjectAmount), body: bodyAmounts.map(asCents).filter((cents) => cents !== null) },
      memos: findMemos(facts.text),
      reference_number: extractReference(values),
      sender_name: extractSenderName(values, classification.subjectSender) ?? (facts.from?.name || null),
      sender_email: payerAddress(facts.replyTo),
      transfer_date: (values.get('date') ?? []).map(readLeadingDate).find((date) => date !== null) ?? null,
      sent_at: readDateHeader(facts.dateHeader ?? undefined),
      subject,
      comment: facts.text,
    },
  };
}

function decide({ fields, subjectAmount, bodyAmounts, bodyDeposited }: Reading): NoticeParseResult {
  if (fields.kind === 'unknown') return { status: 'rejected', reasons: ['unrecognized_notice'], fields };
  if (fields.kind !== 'deposit') return { status: 'rejected', reasons: ['not_a_deposit'], fields };
  const reasons: ParseReason[] = [];
  if (!bodyDeposited) reasons.push('body_not_a_deposit');
  if (subjectAmount === 'unparseable' || bodyAmounts.includes('unparseable')) reasons.push('amount_unparseable');
  else if (bodyAmounts.length === 0) reasons.push('amount_missing');
  else if (fields.amount_cents === null) reasons.push('amount_mismatch');
  if (fields.memos.length === 0) reasons.push('memo_missing');
  if (fields.memos.length > 1) reasons.push('memo_ambiguous');
  if (!fields.reference_number) reasons.push('reference_missing');
  if (!fields.sender_name) reasons.push('sender_missing');
  if (reasons.length > 0 || fields.amount_cents === null || !fields.reference_number || !fields.sender_name) {
    return { status: 'rejected', reasons, fields };
  }
  return {
    status: 'parsed',
    fields,
    notice: {
      kind: 'deposit',
      language: fields.language ?? 'en',
      amount_cents: fields.amount_cents,
      memo: fields.memos[0],
      reference_number: fields.reference_number,
      sender_name: fields.sender_name,
      sender_email: fields.sender_email,
      transfer_date: fields.transfer_date,
      sent_at: fields.sent_at,
      subject: fields.subject,
      comment: fields.comment,
    },
  };
}

const asCents = (amount: AmountRead): number | null => (typeof amount === 'number' ? amount : null);

/** Reply-To names the payer, unless it points back at Interac. */
const payerAddress = (replyTo: string | null): string | null =>
  replyTo && !/@(?:[a-z0-9-]+\.)*interac\.ca$/i.test(replyTo) ? replyTo.toLowerCase() : null;

/** The result for a message whose MIME structure (or whose text) could not be read. */
export function unreadableNotice(facts: MimeFacts | null): NoticeParseResult {
  return {
    status: 'rejected',
    reasons: ['mime_unparseable'],
    fields: {
      kind: 'unknown', language: null, amount_cents: null, amounts: { subject: null, body: [] }, memos: [],
      reference_number: null, sender_name: null, sender_email: null, transfer_date: null, sent_at: null,
      subject: facts?.subject ?? '', comment: facts?.text ?? '',
    },
  };
}
