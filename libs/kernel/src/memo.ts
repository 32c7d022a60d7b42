import { randomInt } from 'node:crypto';

/**
 * Transfer memo: "PP-" plus 6 characters from an alphabet without look-alikes
 * (no 0/O, 1/I/L), PRODUCT-RULES §D3.
 */
export const MEMO_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const MEMO_BODY_LENGTH = 6;
export const MEMO_PATTERN = /^PP-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/;

export function generateMemo(): string {
  let body = '';
  for (let i = 0; i < MEMO_BODY_LENGTH; i++) body += MEMO_ALPHABET[randomInt(MEMO_ALPHABET.length)];
  return `PP-${body}`;
}

/*
 * "PP", optional dash or spaces, then six memo characters that may have spaces between them.
 * Untrusted e-mail text reaches this pattern, so it must stay linear: each way of splitting
 * the text between "PP" and the memo is tried at most once. The former `\s*-?\s*` let a
 * whitespace run after "PP" be split between its two runs in every possible way (quadratic:
 * 40,000 spaces took seconds); here the first run exists only when a dash ends it.
 */
const MEMO_IN_TEXT = new RegExp(
  `\\bPP(?:[\\s\\u00a0\\u202f]*-)?[\\s\\u00a0\\u202f]*((?:[${MEMO_ALPHABET}][ \\u00a0\\u202f]?){5}[${MEMO_ALPHABET}])(?![A-Z0-9])`,
  'gi',
);

/**
 * Characters that show nothing: zero-width ones (U+200B–U+200D, U+FEFF), the
 * word joiner (U+2060), the Mongolian vowel separator (U+180E) and the soft
 * hyphen (U+00AD). A payer's keyboard or mail client may put them in a memo,
 * and left in a memo or an amount they split what a reader sees as one
 * ("PP-7K3\u2060M9Q"). The one list of them: the ingest's text normalizer
 * drops the same.
 */
const INVISIBLE = /[\u00ad\u180e\u200b\u200c\u200d\u2060\ufeff]/g;

/** `text` without the characters that show nothing (INVISIBLE above). */
export const withoutInvisible = (text: string): string => text.replace(INVISIBLE, '');

/**
 * What a payer may write as a memo's dash: hyphens, dashes and the minus
 * sign (U+2010–U+2015, U+2212). Folded here only: amounts are read
 * elsewhere, where a minus must never become '-'.
 */
const DASHES = /[\u2010-\u2015\u2212]/g;

/** Every memo written anywhere in free text, normalised to "PP-XXXXXX". */
export function findMemos(text: string): string[] {
  const found = new Set<string>();
  for (const match of withoutInvisible(text).replace(DASHES, '-').matchAll(MEMO_IN_TEXT)) {
    found.add(`PP-${match[1].replace(/[\s\u00a0\u202f]/g, '').toUpperCase()}`);
  }
  return [...found];
}

/** Canonical form of one memo typed by a person ("pp 7k3m9q" → "PP-7K3M9Q"), or null. */
export function normalizeMemo(input: string): string | null {
  const [first] = findMemos(input.trim());
  return first && first.length === 9 && input.replace(/[^A-Za-z0-9]/g, '').length === 8 ? first : null;
}
