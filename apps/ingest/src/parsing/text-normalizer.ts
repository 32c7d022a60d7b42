import { storableText } from '@pp/kernel';

/**
 * Spaces that Interac and mail clients put in amounts and labels: no-break
 * (U+00A0), narrow no-break (U+202F), thin (U+2009) and figure (U+2007) spaces.
 */
const SPECIAL_SPACES = /[\u00a0\u202f\u2009\u2007]/g;
/**
 * Characters that show nothing: zero-width ones, the word joiner (U+2060),
 * the Mongolian vowel separator (U+180E) and the soft hyphen (U+00AD, which
 * the HTML flattener drops too). Left in a memo or an amount, they split what
 * a reader sees as one ("PP-7K3\u2060M9Q").
 */
const INVISIBLE = /[\u00ad\u180e\u200b\u200c\u200d\u2060\ufeff]/g;
/**
 * The bidi embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069):
 * a sender's name or memo holding a right-to-left override would show text
 * (the authentication verdict next to it, say) reordered on an operator's
 * screen. Hebrew and Arabic need none of them; their direction marks stay.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Same text with one kind of line ending and one kind of space, without
 * invisible characters or bidi controls, and nothing Postgres refuses to
 * store (NUL, a lone surrogate), so that any message's outcome can be recorded.
 */
export function normalizeText(text: string): string {
  return storableText(text.replace(/\r\n?/g, '\n').replace(SPECIAL_SPACES, ' ').replace(INVISIBLE, '').replace(BIDI_CONTROLS, ''));
}

/** Collapses every run of whitespace, line breaks included, into one space (wrapped sentences read as one). */
export const flattenWhitespace = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** At most `max` UTF-16 units of `text` (normalizeText then mends a pair cut in half), and whether anything was cut. */
export const clip = (text: string, max: number): { text: string; cut: boolean } =>
  text.length <= max ? { text, cut: false } : { text: text.slice(0, max), cut: true };
