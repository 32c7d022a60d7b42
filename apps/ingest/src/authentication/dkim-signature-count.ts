const LF = 0x0a;
const CR = 0x0d;
const NAME = Buffer.from('dkim-signature');
const SPACE = 0x20;
const TAB = 0x09;
const COLON = 0x3a;
/** ASCII letters' case bit: 'D' | CASE is 'd'. */
const CASE = 0x20;
const lowerCase = (byte: number): number => (byte >= 0x41 && byte <= 0x5a ? byte | CASE : byte);

/**
 * How many DKIM-Signature fields the header section of `raw` has, counting at
 * most `stopAt` (the caller's cap: past it the exact number does not matter).
 * One pass from line feed to line feed over the header section alone, which
 * ends at the first empty line (LF LF or LF CR LF), as DKIM reads it.
 */
export function countDkimSignatures(raw: Uint8Array, stopAt: number): number {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  let count = 0;
  for (let start = 0; start < bytes.length && count < stopAt; ) {
    if (bytes[start] === LF || (bytes[start] === CR && bytes[start + 1] === LF)) break; // the empty line: the body follows
    if (namesDkimSignature(bytes, start)) count += 1;
    const end = bytes.indexOf(LF, start);
    if (end < 0) break;
    start = end + 1;
  }
  return count;
}

/** Whether the line at `start` is a DKIM-Signature field: the name in any case, optional blanks, then a colon. */
function namesDkimSignature(bytes: Buffer, start: number): boolean {
  if (start + NAME.length > bytes.length) return false;
  for (let at = 0; at < NAME.length; at += 1) if (lowerCase(bytes[start + at]) !== NAME[at]) return false;
  let at = start + NAME.length;
  while (bytes[at] === SPACE || bytes[at] === TAB) at += 1;
  return bytes[at] === COLON;
}
