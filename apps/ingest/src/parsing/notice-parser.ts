import { findMemos } from '@pp/kernel';
import { agreedAmount } from './amount-agreement';
import { readWholeAmount, type AmountRead } from './amount-parser';
import { readDateHeader } from './date-parser';
import { extractBodyAmounts, extractLabelledValues, extractReferences, extractSenderName, extractTransferDate, findLabels } from './field-extractor';
import { readMime, type MimeFacts } from './mime-reader';
import { bodySaysDeposited, classifySubject } from './notice-classifier';
import type { NoticeFields, NoticeParseResult, ParseReason } from './notice.types';
import { splitPayerMessage } from './payer-message';
import { flattenWhitespace } from './text-normalizer';

/** What one raw message says: its decoded parts (null when unreadable) and the notice read from them. */
export interface NoticeReading {
  facts: MimeFacts | null;
  parse: NoticeParseResult;
}

/**
 * Reads one raw message. Never throws: anything it cannot read becomes a
 * reason. The service runs it in a worker thread under a deadline
 * (notice-reader.ts); tests call it directly.
 */
export async function readNotice(raw: Uint8Array): Promise<NoticeReading> {
  const facts = await readMime(raw);
  return { facts, parse: facts ? extractNotice(facts) : unreadableNotice(null) };
}

/** Parses one raw message. Never throws: anything it cannot read becomes a reason. */
export async function parseNotice(raw: Uint8Array): Promise<NoticeParseResult> {
  return (await readNotice(raw)).parse;
}

/** Reads the notice out of a decoded message. Pure; never throws. */
export function extractNotice(facts: MimeFacts): NoticeParseResult {
  let result: NoticeParseResult;
  try {
    result = decide(read(facts));
  } catch {
    // A defect here must not lose the message: it goes to manual review like any unreadable one.
    result = unreadableNotice(facts);
  }
  // Only the start of an over-long message was read: whatever it says, a person decides.
  if (!facts.truncated) return result;
  const reasons: ParseReason[] = [...(result.status === 'rejected' ? result.reasons : []), 'message_too_long'];
  return { status: 'rejected', reasons, fields: result.fields };
}

interface Reading {
  fields: NoticeFields;
  amountReason: ParseReason | null;
  bodyDeposited: boolean;
  /** Distinct reference numbers under a reference label (fields.reference_number holds one only when there is one). */
  referencesFound: number;
  /** A name the payer typed (his, or the recipient's) holds one of Interac's labels: which labels are Interac's cannot be told. */
  nameAmbiguous: boolean;
}

function read(facts: MimeFacts): Reading {
  const subject = flattenWhitespace(facts.subject);
  const classification = classifySubject(subject);
  const { message, interac, opening, labelled } = splitPayerMessage(facts.text);
  // Interac's fields are read from its labels only: the payer may write any label in the Message or in a name.
  const values = extractLabelledValues(labelled);
  const subjectAmount = classification.subjectAmount === null ? null : readWholeAmount(classification.subjectAmount);
  const stated = { subject: subjectAmount, body: extractBodyAmounts(interac, values), message: messageAmounts(message) };
  const amount = agreedAmount(stated);
  const references = extractReferences(values);
  // The payer chooses his name and the recipient's, and Interac prints them among its own labels (the subject, the
  // greeting, Sent From): a name like "JANE Date: … Reference Number: C… Sent From: JANE" would put labels of his where
  // Interac's are read (its tail; the whole text when it has no Message label).
  const payerNames = [classification.subjectSender, facts.from?.name, ...facts.toNames];
  const nameAmbiguous = payerNames.some((name) => !!name && findLabels(name).length > 0);
  // The names are the payer's words among Interac's before the Message: one saying "automatically deposited" says nothing.
  const nameSaysDeposited = payerNames.some((name) => !!name && bodySaysDeposited(flattenWhitespace(name)));
  return {
    referencesFound: references.length,
    nameAmbiguous,
    amountReason: amount.reason,
    // Interac's words before the Message, where both layouts say it: a payer could write "automatically deposited" in
    // his Message, and in a name, which is then no proof.
    bodyDeposited: !nameSaysDeposited && bodySaysDeposited(flattenWhitespace(opening)),
    fields: {
      kind: classification.kind,
      language: classification.language,
      amount_cents: amount.cents,
      amounts: { subject: asCents(subjectAmount), body: stated.body.map(asCents).filter((cents) => cents !== null), message: stated.message },
      // The payer writes the memo in the Message; elsewhere a name ("PP BAXTER") can read as one.
      memos: findMemos(message ?? facts.text),
      // The dedupe key: one the payer wrote could make a later genuine notice this one's duplicate. Several make it none,
      // and so does a name that may have placed one.
      reference_number: references.length === 1 && !nameAmbiguous ? references[0] : null,
      sender_name: extractSenderName(values, classification.subjectSender) ?? (facts.from?.name || null),
      sender_email: payerAddress(facts.replyTo),
      transfer_date: extractTransferDate(values),
      sent_at: readDateHeader(facts.dateHeader ?? undefined),
      subject,
      comment: message || null,
      text: facts.text,
    },
  };
}

function decide({ fields, amountReason, bodyDeposited, referencesFound, nameAmbiguous }: Reading): NoticeParseResult {
  if (fields.kind === 'unknown') return { status: 'rejected', reasons: ['unrecognized_notice'], fields };
  if (fields.kind !== 'deposit') return { status: 'rejected', reasons: ['not_a_deposit'], fields };
  const reasons: ParseReason[] = [];
  if (!bodyDeposited) reasons.push('body_not_a_deposit');
  if (amountReason) reasons.push(amountReason);
  if (fields.memos.length === 0) reasons.push('memo_missing');
  if (fields.memos.length > 1) reasons.push('memo_ambiguous');
  if (nameAmbiguous) reasons.push('name_ambiguous');
  else if (referencesFound > 1) reasons.push('reference_ambiguous');
  else if (!fields.reference_number) reasons.push('reference_missing');
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

/**
 * The amounts the payer's Message writes that read as amounts. What follows
 * an amount label or phrase there is the payer's words ("Amount: see
 * invoice", "for the amount of 3 items"), not Interac's promise of an
 * amount: a Message amount may only agree with Interac's, so one that reads
 * as none says nothing, and must not send a good payment to review.
 */
const messageAmounts = (message: string | null): number[] =>
  message === null ? [] : extractBodyAmounts(message).filter((amount) => typeof amount === 'number');

/** Reply-To names the payer, unless it points back at Interac. */
const payerAddress = (replyTo: string | null): string | null =>
  replyTo && !/@(?:[a-z0-9-]+\.)*interac\.ca$/i.test(replyTo) ? replyTo.toLowerCase() : null;

/**
 * The result for a message whose MIME structure (or whose text) could not be
 * read; `parse_timeout` and `parse_failed` when the worker reading it gave up.
 */
export function unreadableNotice(facts: MimeFacts | null, reason: ParseReason = 'mime_unparseable'): NoticeParseResult {
  return {
    status: 'rejected',
    reasons: [reason],
    fields: {
      kind: 'unknown', language: null, amount_cents: null, amounts: { subject: null, body: [], message: [] }, memos: [],
      reference_number: null, sender_name: null, sender_email: null, transfer_date: null, sent_at: null,
      subject: facts?.subject ?? '', comment: null, text: facts?.text ?? '',
    },
  };
}
