import { Matches } from 'class-validator';

/*
 * Text a person typed, wherever the platform keeps it: no control characters,
 * no invisible formatting (bidi overrides, zero-width spaces) and no half of
 * a surrogate pair. Postgres' jsonb refuses NUL and half pairs, so a ledger
 * append holding them would fail (a 500, and its group commit's batch rerun
 * one by one); the others make text read otherwise on an operator's screen,
 * in a list or on the audit trail than it is stored. The zero-width joiners
 * stay, as they join emoji and some scripts' letters. In each pattern the two
 * alternatives share no character, so the match is linear.
 */

/** Text of several lines (a refund's reason): newline and tab are text. */
const MULTI_LINE = /^(?:[\u200c\u200d]|[^\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\p{Cs}])*$/u;

/** One line (a name, a reference, a search): newline and tab are refused too, as every other control. */
const SINGLE_LINE = /^(?:[\u200c\u200d]|[^\p{Cc}\p{Cf}\p{Cs}])*$/u;

/** The plain-text rule on a string field: one line unless `multiline`. Other rules check that it is a string. */
export function PlainText(field: string, options: { multiline?: boolean } = {}): PropertyDecorator {
  return Matches(options.multiline ? MULTI_LINE : SINGLE_LINE, { message: `${field} must not contain control or invisible formatting characters` });
}
