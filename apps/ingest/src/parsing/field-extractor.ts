import { readLeadingAmount, type AmountRead } from './amount-parser';
import { readLeadingDate } from './date-parser';
import { flattenWhitespace } from './text-normalizer';

export type LabelledField = 'message' | 'date' | 'reference' | 'sender' | 'amount';

/**
 * Labels as Interac prints them, English and French, in the order it prints
 * them; words may be split by any whitespace.
 */
const LABELS: Record<LabelledField, string[]> = {
  message: ['Message'],
  date: ['Date'],
  reference: ['Reference Number', 'Reference No\\.?', 'Reference #', 'Numéro de référence', 'No de référence', 'N° de référence'],
  sender: ['Sent From', 'Sent By', 'Envoyé par'],
  amount: ['Amount', 'Montant'],
};

const FIELD_ORDER = Object.keys(LABELS) as LabelledField[];
const alternatives = (words: string[]) => words.map((label) => label.replace(/ /g, '\\s+')).join('|');
// A label starts a word and ends with a colon, optionally after a space ("Reference Number :").
// Linear on any text: a label's whitespace run can only end where its next word starts, so each run is read once.
const LABEL = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${FIELD_ORDER.map((field) => `(${alternatives(LABELS[field])})`).join('|')})[ \\t]?:`,
  'giu',
);

/** A label as found in the text: its field and where it stands. */
export interface FoundLabel {
  field: LabelledField;
  start: number;
  end: number;
}

/** Every label in the text, in order. */
export function findLabels(text: string): FoundLabel[] {
  return [...text.matchAll(LABEL)].map((match) => ({
    field: FIELD_ORDER[match.slice(1).findIndex((group) => group !== undefined)],
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/**
 * Every labelled value in the text, for both layouts: "Label: value" on one
 * line, and the label on its own line with the value on the next. A value
 * ends at the next label, so a missing value never swallows the next label.
 * Works on one-line (flattened) text too, where only labels separate values.
 */
export function extractLabelledValues(text: string): Map<LabelledField, string[]> {
  const found = findLabels(text);
  const values = new Map<LabelledField, string[]>();
  found.forEach((label, i) => {
    const value = firstValueLine(text.slice(label.end, found[i + 1]?.start ?? text.length));
    if (value) values.set(label.field, [...(values.get(label.field) ?? []), value]);
  });
  return values;
}

/** The rest of the label's line, or when that is empty, the next non-empty line. */
function firstValueLine(raw: string): string {
  const lines = raw.split('\n').map((line) => line.trim());
  return lines[0] || lines.slice(1).find((line) => line !== '') || '';
}

const REFERENCE = /^(C[A-Za-z0-9]{7,11})(?![A-Za-z0-9])/;

/**
 * Every distinct Interac reference number under a reference label. The caller
 * passes Interac's words (the payer's Message left out) and needs exactly one:
 * text with no Message label may still hold the payer's ("balance of
 * Reference Number: C…"), quoting another transfer.
 */
export function extractReferences(values: Map<LabelledField, string[]>): string[] {
  const references = (values.get('reference') ?? []).map((value) => REFERENCE.exec(value)?.[1]).filter((reference) => reference !== undefined);
  return [...new Set(references)];
}

// Phrases that precede an amount in running text; the text is whitespace-flattened first.
const AMOUNT_LEADS = [
  /for the amount of /gi,
  /pour (?:un|le) montant de /gi,
  /d['\u2019]un montant de /gi,
  /Funds Deposited ?! ?/gi,
  /Les fonds ont été déposés ?! ?/gi,
];

/**
 * Every amount `text` states: under an Amount label, in the sentence of older
 * layouts, under the headline. Where a label or a lead promises an amount,
 * what follows is money: anything no format reads there ("CA$5.25",
 * "-$5.00") is 'unparseable', never skipped, or a notice could be left with
 * only the amounts its other parts state. `values`: the text's labelled
 * values, when the caller has read them already.
 */
export function extractBodyAmounts(text: string, values = extractLabelledValues(text)): Array<Exclude<AmountRead, null>> {
  const promised = (value: string): Exclude<AmountRead, null> => readLeadingAmount(value).cents ?? 'unparseable';
  const labelled = (values.get('amount') ?? []).map(promised);
  const flat = flattenWhitespace(text);
  const inSentences = AMOUNT_LEADS.flatMap((lead) => [...flat.matchAll(lead)].map((match) => promised(flat.slice(match.index + match[0].length))));
  return [...labelled, ...inSentences];
}

/**
 * The payer's name: the one the subject names, else the one under "Sent
 * From" / "Envoyé par". The caller passes Interac's words, but text with no
 * Message label may still hold a payer's "Sent From: JANE CUSTOMER": the
 * subject's name always wins, and without one, labelled values that differ
 * (compared whole, after trimming) name no one, and the caller falls back to
 * the From display name.
 */
export function extractSenderName(values: Map<LabelledField, string[]>, subjectSender: string | null): string | null {
  if (subjectSender) return subjectSender;
  const labelled = [...new Set((values.get('sender') ?? []).map((value) => value.trim()).filter(Boolean))];
  return labelled.length === 1 ? labelled[0] : null;
}

/**
 * The transfer date, when every readable Date value names the same day: text
 * with no Message label may hold a date the payer wrote beside Interac's.
 */
export function extractTransferDate(values: Map<LabelledField, string[]>): string | null {
  const dates = new Set((values.get('date') ?? []).map(readLeadingDate).filter((date) => date !== null));
  return dates.size === 1 ? [...dates][0] : null;
}
