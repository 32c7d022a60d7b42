import type { AmountRead } from './amount-parser';
import type { ParseReason } from './notice.types';

/** The amounts a notice states, by who wrote them. */
export interface StatedAmounts {
  subject: AmountRead;
  /** Interac's own body text: the headline, the older layouts' sentence, its Amount label. */
  body: Array<Exclude<AmountRead, null>>;
  /** The payer's Message, which may write any amount under any label: only those that read as amounts (integer cents). */
  message: number[];
}

/**
 * The notice's amount: every amount it states must be readable and equal,
 * and Interac's body must state one. The payer's Message may only agree: a
 * payer could otherwise write the amount the session asks for and have it
 * read as the transfer's (docs/INGEST-FORMATS.md, "Amounts").
 */
export function agreedAmount({ subject, body, message }: StatedAmounts): { cents: number | null; reason: ParseReason | null } {
  const stated = [subject, ...body, ...message].filter((amount) => amount !== null);
  const distinct = new Set(stated);
  const [only] = distinct;
  const byInterac = subject !== null || body.length > 0;
  const cents = byInterac && distinct.size === 1 && typeof only === 'number' ? only : null;
  if (distinct.has('unparseable')) return { cents, reason: 'amount_unparseable' };
  if (body.length === 0) return { cents, reason: 'amount_missing' };
  return { cents, reason: cents === null ? 'amount_mismatch' : null };
}
