import { MAX_EVIDENCE_REASONS } from '@pp/contracts';

/** A reason with a qualifier (`header_not_signed:content-type`) details a headline reason or a single header. */
const isDetail = (reason: string): boolean => reason.includes(':');

/**
 * The reasons, each once, clipped to MAX_EVIDENCE_REASONS: record-transfer
 * refuses a longer list (TransferEvidence), and a stored outcome is handed
 * off again as it was recorded, so a list one entry too long would be
 * refused at every repeat, for ever. Headline reasons
 * (`dkim_failed`, `from_not_trusted`, `dkim_headers_not_covered`, …) are
 * kept before qualified ones, which name a header each: the authenticator
 * records the DKIM verdict last, after the header checks, so cutting the
 * tail would drop the one reason a reviewer reads first. The kept reasons
 * stay in the order given.
 */
export function clipReasons<R extends string>(reasons: readonly R[]): R[] {
  const distinct = [...new Set(reasons)];
  if (distinct.length <= MAX_EVIDENCE_REASONS) return distinct;
  const kept = new Set([...distinct.filter((reason) => !isDetail(reason)), ...distinct.filter(isDetail)].slice(0, MAX_EVIDENCE_REASONS));
  return distinct.filter((reason) => kept.has(reason));
}
