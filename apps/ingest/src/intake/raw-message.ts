import { createHash } from 'node:crypto';
import { DomainError, ErrorCode, MAX_RAW_EMAIL_BYTES } from '@pp/contracts';
import { FIELD_NAME, HEADER_SECTION_LIMITS, type HeaderSectionFault, readHeaderSection } from './header-section';

/** What intake needs to know about a raw message before storing it. */
export interface RawMessage {
  bytes: Buffer;
  sha256: string;
  /**
   * Recorded, never a dedupe key: anyone can copy a genuine Message-ID onto a
   * forgery sent first. One stored copy per content (sha256); copies of one
   * transfer are caught later by the authenticated Interac reference number
   * and DKIM signature.
   */
  messageId: string | null;
}

/**
 * Checks that `bytes` is an RFC 822 message (a header section of well-formed
 * fields, every line of it, a From among them, within HEADER_SECTION_LIMITS)
 * no larger than 5 MB, and reads its Message-ID. Throws VALIDATION_FAILED
 * otherwise. What a mail pipeline may put in front of the message (an mbox
 * "From sender date" line, as Postfix's pipe with its F flag writes, and
 * blank lines) is not the message: it is cut off first, so such a
 * pipeline's notices are stored rather than refused.
 */
export function inspectRawMessage(delivered: Buffer): RawMessage {
  const bytes = withoutEnvelope(delivered);
  if (bytes.length === 0) throw invalid('the message is empty');
  if (bytes.length > MAX_RAW_EMAIL_BYTES) throw invalid('the message is larger than 5 MB');
  const section = readHeaderSection(bytes);
  if (section.fault) throw invalid(faultText(section));
  const headers = section.fields;
  if (!headers.some((header) => header.name === 'from')) throw invalid('the message is not RFC 822 (no From header)');
  const messageId = headers.find((header) => header.name === 'message-id')?.value.trim() || null;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { bytes, sha256, messageId };
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * `bytes` without blank lines in front, nor an mbox postmark (RFC 4155:
 * "From ", the envelope sender and a date) before the first field. A
 * postmark is told from a From field by its missing colon after the name.
 */
function withoutEnvelope(bytes: Buffer): Buffer {
  let start = 0;
  while (bytes[start] === LF || (bytes[start] === CR && bytes[start + 1] === LF)) start += bytes[start] === LF ? 1 : 2;
  const lineEnd = bytes.indexOf(LF, start);
  const firstLine = bytes.subarray(start, lineEnd === -1 ? bytes.length : lineEnd).toString('latin1');
  if (firstLine.startsWith('From ') && !FIELD_NAME.test(firstLine)) start = lineEnd === -1 ? bytes.length : lineEnd + 1;
  return start === 0 ? bytes : bytes.subarray(start);
}

/** Why intake refuses a header section, for the sender. */
function faultText(section: HeaderSectionFault): string {
  switch (section.fault) {
    case 'too_large':
      return `the header section is larger than ${HEADER_SECTION_LIMITS.bytes / 1024} KB`;
    case 'too_many_lines':
      return `the header section has more than ${HEADER_SECTION_LIMITS.lines} lines`;
    case 'malformed_line':
      return `the message is not RFC 822 (header line ${section.line} is neither a field nor the fold of one)`;
  }
}

const invalid = (why: string) => new DomainError(ErrorCode.ValidationFailed, `Validation failed: ${why}`);

/**
 * Strict base64 (the bus payload): Buffer.from alone would silently skip foreign characters. Checked in one pass, not
 * with a pattern: a regular expression repeating a group backtracks through a stack that a few MB overflow.
 */
export function decodeBase64(text: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (!isBase64(compact)) throw invalid('raw_base64 must be a base64 string');
  return Buffer.from(compact, 'base64');
}

/** Whole groups of four of the alphabet, the last one ending in at most two "=". */
function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  for (let i = 0; i < text.length - padding; i++) if (!isBase64Letter(text.charCodeAt(i))) return false;
  return true;
}

const isBase64Letter = (code: number): boolean =>
  (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2f;
