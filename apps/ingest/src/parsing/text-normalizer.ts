import { storableText, withoutInvisible } from '@pp/kernel';

/**
 * Spaces that Interac and mail clients put in amounts and labels: no-break
 * (U+00A0), narrow no-break (U+202F), thin (U+2009) and figure (U+2007) spaces.
 */
const SPECIAL_SPACES = /[\u00a0\u202f\u2009\u2007]/g;
/**
 * The bidi embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069):
 * a sender's name or memo holding a right-to-left override would show text
 * (the authentication verdict next to it, say) reordered on an operator's
 * screen. Hebrew and Arabic need none of them; their direction marks stay.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Same text with one kind of line ending and one kind of space, without
 * characters that show nothing (kernel's withoutInvisible, the list
 * findMemos folds too: zero-width ones, the word joiner, U+180E, the soft
 * hyphen, which the HTML flattener drops too) or bidi controls, and nothing
 * Postgres refuses to store (NUL, a lone surrogate), so that any message's
 * outcome can be recorded.
 */
export function normalizeText(text: string): string {
  return storableText(withoutInvisible(text.replace(/\r\n?/g, '\n').replace(SPECIAL_SPACES, ' ')).replace(BIDI_CONTROLS, ''));
}

/** Collapses every run of whitespace, line breaks included, into one space (wrapped sentences read as one). */
export const flattenWhitespace = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * At most `max` UTF-16 units of `text`, never ending in half a surrogate
 * pair: the ledger's jsonb refuses a lone one, and a screen shows it as
 * garbage. The one place text is cut for what is handed on (the ledger's
 * fields, a reviewer's evidence).
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** At most `max` UTF-16 units of `text` (normalizeText then mends a pair cut in half), and whether anything was cut. */
export const clipMarked = (text: string, max: number): { text: string; cut: boolean } =>
  text.length <= max ? { text, cut: false } : { text: text.slice(0, max), cut: true };
