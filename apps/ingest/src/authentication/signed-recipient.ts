import { type RecipientReason, ReviewReason } from '@pp/contracts';
import PostalMime from 'postal-mime';
import type { SignedRecipient } from './authentication.types';

/** Longest address a deposit address can be (RFC 5321 path limit, as the contracts allow). */
const MAX_ADDRESS_LENGTH = 320;

/**
 * Reads whom a notice is addressed to from what the signature covers, never
 * from what a mail reader would show: postal-mime merges every To header and
 * the receiving server adds Delivered-To, but DKIM covers only the bottom-most
 * To. `headerKeys` are the message's header names (lowercase, top to bottom);
 * `signedLines` the raw header lines the passing trusted signature covers, in
 * its h= order (mailauth's signingHeaders.headers), or null without one.
 */
export function readSignedRecipient(headerKeys: readonly string[], signedLines: readonly string[] | null): SignedRecipient {
  const reasons: RecipientReason[] = [];
  const toFields = headerKeys.filter((key) => key === 'to').length;
  if (toFields === 0) reasons.push(ReviewReason.RecipientMissing);
  else if (toFields > 1) reasons.push(ReviewReason.RecipientNotUnique);

  // h= order: the first "to" a verifier takes is the bottom-most To field.
  const signedTo = signedLines?.find((line) => fieldName(line) === 'to');
  if (!signedTo) {
    if (toFields > 0) reasons.push(ReviewReason.RecipientNotSigned);
    return { signed_recipient: null, reasons };
  }
  const mailbox = singleMailbox(signedTo.slice(signedTo.indexOf(':') + 1));
  if (!mailbox) reasons.push(ReviewReason.RecipientNotSingleMailbox);
  return { signed_recipient: mailbox, reasons };
}

const fieldName = (line: string): string => line.slice(0, Math.max(0, line.indexOf(':'))).trim().toLowerCase();

/** Characters of an address outside any quoting: a real deposit address has none of these. */
const ADDRESS = /^[^\s@<>"(),;:\\[\]]+@[^\s@<>"(),;:\\[\]]+$/;
/** What may not appear in a display name outside a quoted string: each would make it another mailbox, a group or a comment. */
const PHRASE_SPECIALS = new Set(['<', '>', '@', ',', ';', ':', '\\', '(', ')', '[', ']']);

/**
 * The address of a To value naming exactly one mailbox (no group, no list), lowercased; null otherwise. The display
 * name is the recipient's name as the payer typed it at their bank, so it is the payer's text: a name such as
 * `Bob" <payments@acme.example> "x` must not make the merchant's address the one read. So the value must be a bare
 * address, or one angle-address that ends it behind a display name of plain words and properly closed quoted strings
 * (encoded words included), and postal-mime must read the same single address from it.
 */
function singleMailbox(value: string): string | null {
  const unfolded = value.replace(/\r?\n/g, '').trim();
  const open = unfolded.lastIndexOf('<');
  const bare = open === -1;
  if (!bare && (!unfolded.endsWith('>') || !isPlainDisplayName(unfolded.slice(0, open)))) return null;
  const address = (bare ? unfolded : unfolded.slice(open + 1, -1)).trim().toLowerCase();
  if (address.length > MAX_ADDRESS_LENGTH || !ADDRESS.test(address)) return null;
  const entries = PostalMime.addressParser(unfolded);
  if (entries.length !== 1 || entries[0].group || (entries[0].address ?? '').trim().toLowerCase() !== address) return null;
  return address;
}

/** Whether a display name is words and closed quoted strings only (one pass over it). */
function isPlainDisplayName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    if (name[i] === '"') {
      for (i++; i < name.length && name[i] !== '"'; i++) if (name[i] === '\\') i++;
      if (i >= name.length) return false; // never closed
    } else if (PHRASE_SPECIALS.has(name[i])) return false;
  }
  return true;
}
