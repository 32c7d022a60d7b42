import { type RecipientReason, ReviewReason } from '@pp/contracts';
import PostalMime from 'postal-mime';
import type { SignedRecipient } from './authentication.types';

/** Longest address a deposit address can be (RFC 5321 path limit, as the contracts allow). */
const MAX_ADDRESS_LENGTH = 320;
const ADDRESS = /^[^\s@]+@[^\s@]+$/;

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

/** The address of a To value naming exactly one mailbox (no group, no list), lowercased; null otherwise. */
function singleMailbox(value: string): string | null {
  const entries = PostalMime.addressParser(value.replace(/\r?\n/g, ''));
  if (entries.length !== 1 || entries[0].group) return null;
  const address = (entries[0].address ?? '').trim().toLowerCase();
  return address.length <= MAX_ADDRESS_LENGTH && ADDRESS.test(address) ? address : null;
}
