import { createHash } from 'node:crypto';
import type { DKIMResult } from 'mailauth';
import { readHeaderSection } from '../intake/header-section';
import { NO_SIGNED_RECIPIENT } from '../processing/processed-email';
import { verifyDkim } from './dkim-verification';
import type {
  AuthenticationFailure,
  AuthenticationResult,
  CoveredHeader,
  DkimResolver,
  MimeHeader,
  SingletonHeader,
  VerifiedSignature,
} from './authentication.types';
import { readSignedRecipient } from './signed-recipient';
import { trustedSenders } from './trusted-senders';

export interface AuthenticationPolicy {
  /** Signing domains whose passing signature proves the notice came from Interac. */
  trustedDomains: readonly string[];
  resolver: DkimResolver;
}

/**
 * Headers the passing signature must cover, so none of them can be swapped
 * after signing: From and Subject always, the MIME headers whenever the
 * message has them (they decide how the signed body bytes are read). To is
 * the recipient's rule (signed-recipient.ts).
 */
const ALWAYS_COVERED: CoveredHeader[] = ['from', 'subject'];
const MIME_HEADERS: MimeHeader[] = ['mime-version', 'content-type', 'content-transfer-encoding', 'content-disposition'];
const REQUIRED_ONCE: SingletonHeader[] = ['from', 'subject', 'date', 'message-id'];
/** A second copy above the signature would be what a mail reader uses, while DKIM checks the bottom one. */
const AT_MOST_ONCE: SingletonHeader[] = ['reply-to', ...MIME_HEADERS];

/**
 * The most DKIM-Signature fields a message may carry to be verified at all. A
 * genuine notice has Interac's and perhaps a relay's or a forwarder's; each
 * one costs a hash of the body and, for a trusted domain, a key lookup, so a
 * message with hundreds would hold an authentication worker for seconds and
 * send as many DNS queries.
 */
export const MAX_DKIM_SIGNATURES = 10;

/**
 * Decides whether a raw message was sent by Interac. Only a DKIM signature
 * verified here counts: From, the body and any Authentication-Results header
 * in the message are claims, never evidence. Throws only when the key could
 * not be fetched for a reason that may pass (DNS trouble): the caller retries.
 */
export async function authenticateNotice(raw: Uint8Array, policy: AuthenticationPolicy): Promise<AuthenticationResult> {
  // Before mailauth, whose header parser is quadratic in the folded lines of a field: 2 MB of them held a worker
  // past its deadline. Intake refuses such a message; this holds for any stored before it did.
  const section = readHeaderSection(raw);
  if (section.fault === 'too_large' || section.fault === 'too_many_lines') return unauthenticated('header_section_too_large');
  const result = await verifyDkim(raw, { resolver: policy.resolver }, MAX_DKIM_SIGNATURES);
  if (result.tooManySignatures) return unauthenticated('dkim_too_many_signatures');
  const reasons: AuthenticationFailure[] = [];
  // RFC 5322 has no CR outside CRLF. DKIM keeps a CR-only line in the header above it, the MIME parser ends the
  // header section there: a signed notice with such a line on top would have its body read from unsigned text.
  if (hasBareCarriageReturn(raw)) reasons.push('bare_carriage_return');
  // mailauth appends a line that does not start a field (its colon two folds down, say) to the field above it,
  // where no check below sees it; the MIME parser reads it as a field, and keeps the first Subject or Content-Type.
  // With every line a field or a fold, both split the section into the same fields (a property test checks it), so
  // each count below is also the parser's.
  if (section.fault === 'malformed_line') reasons.push('header_line_malformed');

  const headerKeys = (result.headers?.parsed ?? []).map((header) => header.key);
  const counts = new Map<string, number>();
  for (const key of headerKeys) counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const name of [...REQUIRED_ONCE, ...AT_MOST_ONCE]) {
    const count = counts.get(name) ?? 0;
    if (count > 1) reasons.push(`header_not_unique:${name}`);
    else if (count === 0 && REQUIRED_ONCE.includes(name)) reasons.push(`header_missing:${name}`);
  }

  const from = result.headerFrom.length === 1 ? result.headerFrom[0].toLowerCase() : null;
  const fromDomain = from?.split('@').pop() ?? null;
  if (!from || !trustedSenders(policy.trustedDomains).includes(from)) reasons.push('from_not_trusted');

  // mailauth reports an unsigned message as one result with status "none".
  const signatures = result.results.filter((signature) => signature.status.result !== 'none');
  const trusted = signatures.filter((signature) => isTrustedDomain(signature.signingDomain, policy.trustedDomains));
  const passing = trusted.filter(isDependablePass);
  const mustCover = [...ALWAYS_COVERED, ...MIME_HEADERS.filter((header) => counts.has(header))];
  const problemsOf = (signature: DKIMResult) => signatureProblems(signature, mustCover);
  const acceptable = passing.filter((signature) => problemsOf(signature).length === 0);
  const aligned = acceptable.find((signature) => signature.signingDomain?.toLowerCase() === fromDomain);

  if (signatures.length === 0) reasons.push('dkim_missing');
  else if (trusted.length === 0) reasons.push('dkim_untrusted_domain');
  else if (passing.length === 0) {
    if (trusted.some((signature) => signature.status.result === 'temperror')) {
      throw new DkimKeyUnavailableError(trusted.map((signature) => signature.status.comment).join('; '));
    }
    reasons.push(trusted.every(isKeyMissing) ? 'dkim_key_unavailable' : 'dkim_failed');
  } else if (acceptable.length === 0) reasons.push(...new Set(passing.flatMap(problemsOf)));
  else if (!aligned && !reasons.includes('from_not_trusted')) reasons.push('from_not_aligned');

  const recipient = readSignedRecipient(headerKeys, aligned?.signingHeaders?.headers ?? null);
  if (reasons.length > 0 || !aligned || !from) return { authenticated: false, reasons, from, recipient };
  return {
    authenticated: true,
    signing_domain: aligned.signingDomain!.toLowerCase(),
    selector: aligned.selector ?? '',
    from,
    recipient,
    signatures: verifiedSignatures(passing),
  };
}

/** Refused before anything was established: no sender, no signed recipient. */
export const unauthenticated = (reason: AuthenticationFailure): AuthenticationResult => ({
  authenticated: false,
  reasons: [reason],
  from: null,
  recipient: NO_SIGNED_RECIPIENT,
});

/**
 * Each passing signature once (a DKIM-Signature field copied twice passes twice). All of them, not only the aligned
 * one: a copy that drops one of two signatures still carries the other, and must meet the claim on it.
 */
function verifiedSignatures(passing: readonly DKIMResult[]): VerifiedSignature[] {
  const byKey = new Map<string, VerifiedSignature>();
  for (const signature of passing) {
    // The bytes mailauth verified: Buffer.from skips the blanks and foreign characters a copy could add to b=.
    const b_sha256 = createHash('sha256').update(Buffer.from(signature.signature ?? '', 'base64')).digest('hex');
    const signing_domain = signature.signingDomain!.toLowerCase();
    byKey.set(`${signing_domain} ${b_sha256}`, { signing_domain, b_sha256 });
  }
  return [...byKey.values()];
}

/** Raised when a trusted signature's key could not be fetched (DNS failure): not a verdict, try again later. */
export class DkimKeyUnavailableError extends Error {
  constructor(readonly detail: string) {
    super(`DKIM key lookup failed: ${detail}`);
    this.name = 'DkimKeyUnavailableError';
  }
}

const CR = 0x0d;
const LF = 0x0a;

/** Whether a CR is not followed by LF anywhere in `raw` (one scan from CR to CR). */
function hasBareCarriageReturn(raw: Uint8Array): boolean {
  for (let at = raw.indexOf(CR); at >= 0; at = raw.indexOf(CR, at + 1)) if (raw[at + 1] !== LF) return true;
  return false;
}

const isTrustedDomain = (domain: string | undefined, trusted: readonly string[]): boolean =>
  !!domain && trusted.includes(domain.toLowerCase());

const isKeyMissing = (signature: DKIMResult): boolean => signature.status.comment === 'no key';

/**
 * A pass a verifier may rely on. mailauth's lenient mode also passes what the RFCs say not to: an rsa-sha1 signature
 * (RFC 8301 §3.1: must not be used to verify) and one whose key is published with t=y, its domain testing DKIM
 * (RFC 6376 §3.6.1: to be treated as unsigned). Such a signature counts as failed.
 */
const isDependablePass = (signature: DKIMResult): boolean =>
  signature.status.result === 'pass' && signature.status.testing !== true && !/-sha1$/i.test(signature.algo ?? '');

function signatureProblems(signature: DKIMResult, mustCover: readonly CoveredHeader[]): AuthenticationFailure[] {
  const problems: AuthenticationFailure[] = [];
  // l= lets anyone append text (a second memo, another amount) under a valid signature.
  if (signature.canonBodyLengthLimited) problems.push('dkim_body_length_tag');
  // mailauth lists in signingHeaders.keys the h= names that are present in the message ("From: To: Subject").
  const covered = (signature.signingHeaders?.keys ?? '').split(':').map((key) => key.trim().toLowerCase());
  const uncovered = mustCover.filter((header) => !covered.includes(header));
  if (uncovered.length > 0) problems.push('dkim_headers_not_covered', ...uncovered.map((header) => `header_not_signed:${header}` as const));
  return problems;
}
