/** What a failed sign-in records as who tried when the text typed does not look like an e-mail address. */
export const NOT_AN_EMAIL = '(not an e-mail address)';

/** The longest address SMTP can carry (RFC 5321 §4.5.3.1.3, path of 256 less its angle brackets). */
const MAX_EMAIL_LENGTH = 254;

/**
 * One @, and a domain with a dot between non-empty labels; no whitespace,
 * control or invisible formatting character anywhere, which would make the
 * append-only trail show another address than it holds (a bidi override, a
 * zero-width space) or break the line it is read on.
 */
const EMAIL_SHAPE = /^[^\s@\p{Cc}\p{Cf}]+@[^\s@.\p{Cc}\p{Cf}]+(\.[^\s@.\p{Cc}\p{Cf}]+)+$/u;

/**
 * The e-mail a failed sign-in is recorded under in the append-only audit
 * trail: what was typed only when it has the shape of an address. A password
 * typed into the e-mail field (or pasted there) would otherwise be kept in
 * plain text for ever.
 */
export function attemptedEmail(typed: string): string {
  return typed.length <= MAX_EMAIL_LENGTH && EMAIL_SHAPE.test(typed) ? typed : NOT_AN_EMAIL;
}
