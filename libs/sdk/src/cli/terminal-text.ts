/*
 * Server strings on a terminal. A payer chooses some of them (a payment's
 * sender_name is the From display name of an e-mail), and a control
 * character there could move the cursor, rewrite the window title or what
 * is already on screen, and a bidi control could make text read as
 * something it is not. So these are shown as visible escapes: C0 and C1
 * controls and DEL (tab and newline included: they break a table's columns
 * and a line's fields), and the bidi marks, embeddings, overrides and
 * isolates.
 */
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** For text output: ESC becomes the six characters `\u{1b}`. */
export const escapeControls = (text: string): string => text.replace(UNSAFE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);

/**
 * For JSON output: JSON.stringify escapes C0 controls but leaves DEL, C1
 * and bidi controls raw. They can only stand inside a string literal of a
 * JSON text, where `\uXXXX` is the same character: the line parses to the
 * same value.
 */
export const escapeControlsInJson = (json: string): string => json.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
