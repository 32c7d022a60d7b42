import { readLeadingAmount, type AmountRead } from './amount-parser';

export type LabelledField = 'message' | 'date' | 'reference' | 'sender' | 'amount';

/** Labels as Interac prints them, English and French; words may be split by any whitespace. */
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

/**
 * Every labelled value in the text, for both layouts: "Label: value" on one
 * line, and the label on its own line with the value on the next. A value
 * ends at the next label, so a missing value never swallows the next label.
 * Works on one-line (flattened) text too, where only labels separate values.
 */
export function extractLabelledValues(text: string): Map<LabelledField, string[]> {
  const found = [...text.matchAll(LABEL)].map((match) => ({
    field: FIELD_ORDER[match.slice(1).findIndex((group) => group !== undefined)],
    start: match.index,
    end: match.index + match[0].length,
  }));
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
 * Every distinct Interac reference number under a reference label. The
 * payer's message may write the label too ("balance of Reference Number:
 * C…"), quoting another transfer: the caller needs exactly one.
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

/** Every amount the body states: under an Amount label, in the sentence of older layouts, under the headline. */
export function extractBodyAmounts(values: Map<LabelledField, string[]>, flatBody: string): AmountRead[] {
  const labelled = (values.get('amount') ?? []).map((value) => readLeadingAmount(value).cents);
  const inSentences = AMOUNT_LEADS.flatMap((lead) =>
    [...flatBody.matchAll(lead)].map((match) => readLeadingAmount(flatBody.slice(match.index + match[0].length)).cents),
  );
  return [...labelled, ...inSentences].filter((read) => read !== null);
}

/**
 * The payer's name: the one the subject names, else the one under "Sent
 * From" / "Envoyé par". The payer writes the Message, which comes before
 * "Sent From" in current layouts, so a "Sent From: JANE CUSTOMER" in it would
 * be the first labelled value: the subject's name always wins, and without
 * one, labelled values that differ (compared whole, after trimming) name no
 * one, and the caller falls back to the From display name.
 */
export function extractSenderName(values: Map<LabelledField, string[]>, subjectSender: string | null): string | null {
  if (subjectSender) return subjectSender;
  const labelled = [...new Set((values.get('sender') ?? []).map((value) => value.trim()).filter(Boolean))];
  return labelled.length === 1 ? labelled[0] : null;
}
