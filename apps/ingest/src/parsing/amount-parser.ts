import { isCents } from '@pp/kernel';

/** An amount read from text: cents, 'unparseable' when it looks like money but breaks the formats, or null when absent. */
export type AmountRead = number | 'unparseable' | null;

// "$1,020.00", "$200.00 (CAD)", "$5.25", "$1200"
const ENGLISH = /^\$ ?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?(?![\d,]|\.\d)/;
// "25,00 $", "1 234,56 $", "1.234,56 $", "98, 00 $" (spaces already normalised to U+0020)
const FRENCH = /^(\d{1,3}(?:[ .]\d{3})+|\d+)(?:, ?(\d{2}))? ?\$/;
const CURRENCY_TAG = /^ ?(?:\(CAD\)|CAD\b)/i;

/*
 * Every pattern here is anchored at the start of the value: each call reads
 * the amount's digits once (a long run backtracks digit by digit, linearly),
 * and callers hand each value or sentence to it once.
 */

/** Something that starts like money: a dollar sign or a digit. */
const LOOKS_LIKE_MONEY = /^(?:\$|\d)/;

/**
 * Reads the amount at the start of `value` (text already passed through
 * normalizeText). Returns its length too, so callers can demand that a field
 * holds nothing else.
 */
export function readLeadingAmount(value: string): { cents: AmountRead; length: number } {
  const text = value.trimStart();
  const offset = value.length - text.length;
  const match = ENGLISH.exec(text) ?? FRENCH.exec(text);
  if (!match) return { cents: LOOKS_LIKE_MONEY.test(text) ? 'unparseable' : null, length: 0 };
  const whole = Number(match[1].replace(/[ ,.]/g, ''));
  const cents = whole * 100 + Number(match[2] ?? '0');
  const tag = CURRENCY_TAG.exec(text.slice(match[0].length));
  const length = offset + match[0].length + (tag ? tag[0].length : 0);
  return { cents: isCents(cents) ? cents : 'unparseable', length };
}

/** Reads a text that must be exactly one amount (a subject's amount): anything left over makes it unparseable. */
export function readWholeAmount(value: string): AmountRead {
  const text = value.trim();
  if (!text) return null;
  const { cents, length } = readLeadingAmount(text);
  if (cents === null) return 'unparseable';
  return text.slice(length).trim() === '' ? cents : 'unparseable';
}
