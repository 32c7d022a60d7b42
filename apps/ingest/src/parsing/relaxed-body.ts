/*
 * Reading a notice as DKIM's relaxed canonicalisation reads it (RFC 6376 §3.4): a signature made so (as Interac's
 * and most are) still verifies after blanks are added, doubled or turned into tabs, so the parser must not see them
 * either. A doubled blank before a label's colon (`Montant  :`) would hide the label, and blanks after a
 * quoted-printable soft line break (`=  `), which postal-mime keeps as a hard one, would split a label or a phrase;
 * a copy altered so would then read as other text than the one Interac signed.
 */

const SP = 0x20;
const HTAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const EQUALS = 0x3d;

/**
 * The message with the blanks after each quoted-printable soft line break dropped (`=  ` at a line's end is still a
 * soft break: RFC 2045 §6.7 calls them transport padding). Only those: the MIME structure (a boundary may hold
 * spaces) and format=flowed's trailing spaces are left as they are; the decoded text is relaxed by relaxedText.
 * One pass over the bytes (SP and HTAB never occur inside a UTF-8 sequence).
 */
export function withoutSoftBreakPadding(raw: Uint8Array): Uint8Array {
  const out = new Uint8Array(raw.length);
  let length = 0;
  let blanksFrom = -1; // where a run of blanks right after '=' starts in `out`, while it lasts
  for (let i = 0; i < raw.length; i += 1) {
    const byte = raw[i];
    if ((byte === CR || byte === LF) && blanksFrom !== -1) length = blanksFrom;
    if (byte === SP || byte === HTAB) {
      if (blanksFrom === -1 && length > 0 && out[length - 1] === EQUALS) blanksFrom = length;
    } else {
      blanksFrom = -1;
    }
    out[length++] = byte;
  }
  return out.subarray(0, length);
}

/** Decoded text as the relaxed body reads it: in every line, each run of spaces and tabs one space, and none at the line's end. */
export const relaxedText = (text: string): string => text.replace(/[ \t]+/g, ' ').replace(/ (?=\n|$)/g, '');

/** Header values as relaxed header canonicalisation reads them (RFC 6376 §3.4.2): every run of blanks one space, none at the ends. */
export const relaxedHeaderValue = (value: string): string => value.replace(/[ \t]+/g, ' ').trim();
