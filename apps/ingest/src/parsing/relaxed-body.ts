const SP = 0x20;
const HTAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;

/**
 * The message with its body as DKIM's relaxed body canonicalisation reads it (RFC 6376 §3.4.4): in every line, each
 * run of spaces and tabs one space, and none at the line's end. A signature made that way (as Interac's and most
 * are) still verifies after such edits, so the parser must not read them either: a doubled blank before a label's
 * colon (`Montant  :`) would hide the label, and blanks after a quoted-printable soft line break (`=  `), which
 * postal-mime keeps as a hard one, would split a label or a phrase; a copy altered so would then read as other text
 * than the one Interac signed. The header block is left as it is. One pass over the bytes (SP and HTAB never occur
 * inside a UTF-8 sequence).
 */
export function withRelaxedBody(raw: Uint8Array): Uint8Array {
  const bodyStart = headerEnd(raw);
  if (bodyStart === -1) return raw;
  const out = new Uint8Array(raw.length);
  out.set(raw.subarray(0, bodyStart));
  let length = bodyStart;
  let blanks = false; // a run of blanks seen, not written yet: written as one space before the next other byte
  for (let i = bodyStart; i < raw.length; i += 1) {
    const byte = raw[i];
    if (byte === SP || byte === HTAB) {
      blanks = true;
      continue;
    }
    if (blanks && byte !== CR && byte !== LF) out[length++] = SP;
    blanks = false;
    out[length++] = byte;
  }
  return out.subarray(0, length);
}

/** Where the body starts: after the first empty line (CRLF CRLF, or LF LF in a message of bare line feeds), or -1. */
function headerEnd(raw: Uint8Array): number {
  for (let i = 0; i + 1 < raw.length; i += 1) {
    if (raw[i] !== LF) continue;
    if (raw[i + 1] === LF) return i + 2;
    if (raw[i + 1] === CR && raw[i + 2] === LF) return i + 3;
  }
  return -1;
}

/** Header values as relaxed header canonicalisation reads them (RFC 6376 §3.4.2): every run of blanks one space, none at the ends. */
export const relaxedHeaderValue = (value: string): string => value.replace(/[ \t]+/g, ' ').trim();
