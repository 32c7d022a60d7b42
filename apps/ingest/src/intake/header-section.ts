/**
 * The most a message's header section may hold (up to the empty line that
 * ends it), checked before anything else reads it. The signed notices of the
 * corpus (libs/testing) have at most 1.1 KB of headers in 18 lines,
 * DKIM-Signature included; relays, ARC sets and anti-spam stamps bring a
 * delivered one to some 20 KB in a few hundred lines. 128 KiB is above
 * Postfix's default header_size_limit (100 KB, beyond which it drops the
 * excess), so no mail that came through one set so is refused here.
 * The line count is what bounds the work: mailauth joins a field's folded
 * lines by copying the list of them at each line, quadratic in their
 * number. A signed notice under one field folded to 2,000 lines is
 * authenticated in about 9 ms of CPU (1 ms without it); the 43,000 lines of
 * one space that fit in 128 KiB took mailauth's header parser alone 2.5 s.
 */
export const HEADER_SECTION_LIMITS = { bytes: 128 * 1024, lines: 2_000 } as const;

/** One header field, unfolded: its name lowercased, its value as written (folds joined by a space). */
export interface HeaderField {
  name: string;
  value: string;
}

/**
 * - too_large, too_many_lines: past HEADER_SECTION_LIMITS (read no further)
 * - malformed_line: line `line` (from 1) is neither a field (its name and
 *   colon on that line) nor the fold of one (SP or HTAB first), or holds a NUL
 */
export type HeaderSectionFault = { fault: 'too_large' | 'too_many_lines' } | { fault: 'malformed_line'; line: number };

export type HeaderSection = { fields: HeaderField[]; fault?: undefined } | HeaderSectionFault;

/** A field line: its name (printable US-ASCII but the colon), blanks (RFC 5322 4.5.8), then the colon. */
export const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+[ \t]*:/;
const FOLD = /^[ \t]/;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Reads the header section of `message` line by line, every line of it, in
 * one linear pass that stops at the limits. Every line must be a field with
 * its colon on that line, or the fold of the field above. Only then do
 * mailauth (which appends to the field above any line it does not read as a
 * field's start, judging from that line and the next alone) and postal-mime
 * (which folds SP/HTAB lines alone, and takes any other line for a field)
 * split the section into the same fields: the headers DKIM checks are then
 * the headers the parser reads. A message without an empty line is all
 * header section.
 */
export function readHeaderSection(message: Uint8Array): HeaderSection {
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  // A line that ends past the limit is refused without being looked for further; the two bytes past it hold the
  // CRLF of an empty line that ends a section of exactly the limit.
  const head = bytes.subarray(0, HEADER_SECTION_LIMITS.bytes + 2);
  const fields: HeaderField[] = [];
  for (let start = 0, line = 1; start < head.length; line++) {
    const lineFeed = head.indexOf(LF, start);
    const end = lineFeed === -1 ? head.length : lineFeed;
    const text = head.toString('latin1', start, head[end - 1] === CR && end > start ? end - 1 : end);
    // The empty line that ends the section has its line feed: a lone CR cut off at the limit is no end (mailauth
    // would read on past it, through whatever folds follow).
    if (text === '' && (lineFeed !== -1 || end === bytes.length)) break;
    if (end + (lineFeed === -1 ? 0 : 1) > HEADER_SECTION_LIMITS.bytes) return { fault: 'too_large' };
    if (line > HEADER_SECTION_LIMITS.lines) return { fault: 'too_many_lines' };
    if (text.includes('\0')) return { fault: 'malformed_line', line };
    if (FOLD.test(text) && fields.length > 0) fields[fields.length - 1].value += ` ${text.trim()}`;
    else if (FIELD_NAME.test(text)) {
      const colon = text.indexOf(':');
      fields.push({ name: text.slice(0, colon).trim().toLowerCase(), value: text.slice(colon + 1) });
    } else return { fault: 'malformed_line', line };
    start = end + 1;
  }
  return { fields };
}
