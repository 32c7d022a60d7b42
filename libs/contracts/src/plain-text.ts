import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';

/*
 * Text a person typed, wherever the platform keeps it. Refused everywhere:
 * control characters, half of a surrogate pair, and the bidi embeddings,
 * overrides and isolates. Postgres' jsonb refuses NUL and half pairs, so a
 * ledger append holding them would fail (a 500, and its group commit's batch
 * rerun one by one); controls and bidi overrides make text read otherwise on
 * an operator's screen, in a list or in a log than it is stored. Other
 * invisible characters stay in ordinary text (the direction marks of Hebrew
 * or Arabic, a soft hyphen, the joiners of emoji, the tags of flags): an
 * order reference built from a customer's name may hold them. A name or an
 * e-mail address, which says who someone is, refuses every invisible
 * formatting character but the zero-width joiners, so that one cannot be
 * shown as another. Each pattern is one character class repeated (the
 * identity one, two alternatives that share no character), so the match is
 * linear.
 */

/** Text of several lines (a refund's reason): newline and tab are text. */
const MULTI_LINE = /^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cs}\u202a-\u202e\u2066-\u2069]*$/u;

/** One line (a reference, a description, a search): newline, tab and the Unicode line and paragraph separators are refused too. */
const SINGLE_LINE = /^[^\p{Cc}\p{Cs}\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/u;

/** One line that names someone (a merchant, a person's address). */
const IDENTITY = /^(?:[\u200c\u200d]|[^\p{Cc}\p{Cf}\p{Cs}\u2028\u2029])*$/u;

export interface PlainTextOptions {
  /** Newline and tab are text (a refund's reason). */
  multiline?: boolean;
  /** It names someone: no invisible formatting but the zero-width joiners. */
  identity?: boolean;
}

/** The plain-text rule on a string field: one line unless `multiline`. Other rules check that it is a string. */
export function PlainText(field: string, options: PlainTextOptions = {}): PropertyDecorator {
  const pattern = options.identity ? IDENTITY : options.multiline ? MULTI_LINE : SINGLE_LINE;
  return Matches(pattern, { message: `${field} must not contain control or invisible formatting characters` });
}

/**
 * A string input with its surrounding blanks taken off before the rules after it check it (other values are left to
 * their type's rule).
 */
export const Trimmed = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
