import { FIELD_ORDER, findLabels, type FoundLabel } from './field-extractor';

/** The text split into what the payer wrote (the Message) and what Interac wrote around it. */
export interface SplitText {
  /** The Message's value, trimmed ('' when empty); null when the text has no Message label. */
  message: string | null;
  /** The text without the Message's value: Interac's own words. */
  interac: string;
}

/**
 * Where the payer's Message ends. The payer may write any label in it
 * ("Amount: $500.00", "Date: …"), so the next label is no boundary. After
 * the Message, Interac prints its own labels once each, in FIELD_ORDER (Date,
 * Reference Number, Sent From, Amount; older layouts only the reference):
 * the Message runs up to the longest such run at the end of the text, and
 * any label before that run was the payer's.
 */
function interacLabelsStart(after: FoundLabel[], textLength: number): number {
  let start = after.length;
  while (start > 0) {
    const label = after[start - 1];
    const next = after[start];
    if (label.field === 'message' || (next && FIELD_ORDER.indexOf(label.field) >= FIELD_ORDER.indexOf(next.field))) break;
    start--;
  }
  return after[start]?.start ?? textLength;
}

/** Splits the text at the first Message label (Interac prints it before the payer's words). */
export function splitPayerMessage(text: string): SplitText {
  const labels = findLabels(text);
  const first = labels.findIndex((label) => label.field === 'message');
  if (first === -1) return { message: null, interac: text };
  const from = labels[first].end;
  const to = interacLabelsStart(labels.slice(first + 1), text.length);
  return { message: text.slice(from, to).trim(), interac: `${text.slice(0, from)}\n${text.slice(to)}` };
}
