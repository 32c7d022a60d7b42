import { findLabels, type FoundLabel, type LabelledField } from './field-extractor';

/** The text split into what the payer wrote (the Message) and what Interac wrote around it. */
export interface SplitText {
  /** The Message's value, trimmed ('' when empty); null when the text has no Message label. */
  message: string | null;
  /** The text without the Message's value: Interac's own words. */
  interac: string;
  /** Interac's words before the Message (the whole text when there is none): where both layouts say the money was deposited. */
  opening: string;
  /**
   * Where Interac's labelled fields are: the labels it prints after the Message (the whole text when there is no
   * Message label). No layout prints a label before the Message, where the greeting holds the recipient name the payer
   * typed ("Hi ACME Reference Number: C…,"): a label there is his.
   */
  labelled: string;
}

/**
 * The labels Interac prints after the Message, as each layout prints them (docs/INGEST-FORMATS.md): Date, Reference
 * Number (when there is one), Sent From and Amount; the older layouts the reference alone. Longest first.
 */
const LAYOUT_TAILS: readonly (readonly LabelledField[])[] = [['date', 'reference', 'sender', 'amount'], ['date', 'sender', 'amount'], ['reference']];

/**
 * Where the payer's Message ends. The payer may write any label in it ("Amount: $500.00", "Date: …"), so the next
 * label is no boundary: the Message runs up to the labels a layout prints after it, as the text's last labels,
 * exactly as the layout prints them. Any label before those was the payer's, and so is every label after the Message
 * when the last ones are no layout's: what the payer wrote is never read as Interac's.
 */
function interacLabelsStart(after: FoundLabel[], textLength: number): number {
  // Longest first, so the first that fits is the longest.
  const tail = LAYOUT_TAILS.find((layout) => layout.length <= after.length && layout.every((field, i) => after[after.length - layout.length + i].field === field));
  return tail ? after[after.length - tail.length].start : textLength;
}

/** Splits the text at the first Message label (Interac prints it before the payer's words). */
export function splitPayerMessage(text: string): SplitText {
  const labels = findLabels(text);
  const first = labels.findIndex((label) => label.field === 'message');
  if (first === -1) return { message: null, interac: text, opening: text, labelled: text };
  const from = labels[first].end;
  const to = interacLabelsStart(labels.slice(first + 1), text.length);
  const labelled = text.slice(to);
  return { message: text.slice(from, to).trim(), interac: `${text.slice(0, from)}\n${labelled}`, opening: text.slice(0, labels[first].start), labelled };
}
