import { readHeaderSection } from '../intake/header-section';
import type { ProcessedEmail } from '../processing/processed-email';

/** Values kept of each header: matching looks up at most 20 addresses a notice (matching-plan.ts). */
const MAX_VALUES = 20;
/** Longer than a display name and one mailbox; matching drops such values too. */
const MAX_VALUE_LENGTH = 1000;

/** A value's list separators (commas, semicolons) and a group's colon: no address outside quotes holds one. */
const SEPARATORS = /[,;:]/;

/**
 * Where a message was addressed (To, Delivered-To), read from its raw header
 * section, for a message the MIME parser read nothing of (parse_timeout,
 * parse_failed, mime_unparseable). Without them, a notice whose reading and
 * authentication both gave up was quarantined with no address at all, which
 * no release could ever route. One linear pass over at most 128 KiB
 * (readHeaderSection, which intake ran on the same bytes before storing
 * them), so it is safe on the event loop where the MIME parser was not.
 * Values are cut at separators alone: a quoted display name holding a comma
 * is cut too, and its mailbox is still read from the part in angle brackets.
 * Unsigned, like every To and Delivered-To: they may route the notice to a
 * merchant's review queue, never confirm it (only the signed recipient,
 * established by authentication, can).
 */
export function headerRecipients(raw: Uint8Array): ProcessedEmail['recipients'] {
  const section = readHeaderSection(raw);
  if (section.fault) return { to: [], delivered_to: [] };
  const valuesOf = (name: string): string[] =>
    section.fields
      .filter((field) => field.name === name)
      .flatMap((field) => field.value.split(SEPARATORS))
      .map((value) => value.trim())
      .filter((value) => value.length > 0 && value.length <= MAX_VALUE_LENGTH)
      .slice(0, MAX_VALUES);
  return { to: valuesOf('to'), delivered_to: valuesOf('delivered-to') };
}
