import PostalMime from 'postal-mime';
import { flattenHtml } from './html-flattener';
import { PARSE_LIMITS } from './parse-limits';
import { relaxedHeaderValue, relaxedText, withoutSoftBreakPadding } from './relaxed-body';
import { clipMarked, normalizeText } from './text-normalizer';

/** The parts of a MIME message that the notice parser and the intake records read. */
export interface MimeFacts {
  subject: string;
  from: { name: string; address: string } | null;
  replyTo: string | null;
  to: string[];
  /** The To display names: the recipient name the payer typed at his bank, which Interac also greets ("Hi NAME,"). */
  toNames: string[];
  deliveredTo: string[];
  messageId: string | null;
  dateHeader: string | null;
  /** Plain text, or the HTML flattened when there is no text part; line endings and spaces normalised. */
  text: string;
  /** Whether the message, its HTML, text or subject went past PARSE_LIMITS and only its start was read. */
  truncated: boolean;
}

const mailboxes = (addresses: PostalMime.Address[] | undefined): PostalMime.Mailbox[] =>
  (addresses ?? []).flatMap((address) => (address.group ? address.group : [address]));

/** Control characters (NUL among them, which an RFC 2047 word can carry) and half surrogate pairs: no address holds them. */
const NOT_IN_AN_ADDRESS = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The addresses as decoded, without those that hold what no address holds (and Postgres cannot store). */
const addresses = (values: readonly (string | undefined)[]): string[] =>
  values.filter((value): value is string => !!value && !NOT_IN_AN_ADDRESS.test(value));

/**
 * Decodes the MIME structure (encodings, charsets, RFC 2047 words) of the
 * message's first PARSE_LIMITS.mimeBytes, and caps the HTML, text and subject
 * handed on. Null when postal-mime cannot read it at all.
 */
export async function readMime(raw: Uint8Array): Promise<MimeFacts | null> {
  const bytes = raw.length > PARSE_LIMITS.mimeBytes ? raw.subarray(0, PARSE_LIMITS.mimeBytes) : raw;
  let mail: PostalMime.Email;
  try {
    // Read as a relaxed signature reads it (relaxed-body.ts): blanks it ignores change nothing the parser finds.
    mail = await PostalMime.parse(withoutSoftBreakPadding(bytes));
  } catch {
    return null;
  }
  const [from] = mailboxes(mail.from ? [mail.from] : undefined);
  const [replyTo] = mailboxes(mail.replyTo);
  const html = mail.text?.trim() ? null : clipMarked(mail.html ?? '', PARSE_LIMITS.htmlChars);
  const text = clipMarked(html ? flattenHtml(html.text) : (mail.text ?? ''), PARSE_LIMITS.textChars);
  const subject = clipMarked(mail.subject ?? '', PARSE_LIMITS.subjectChars);
  return {
    subject: relaxedHeaderValue(normalizeText(subject.text)),
    from: from ? { name: normalizeText(from.name ?? '').trim(), address: addresses([from.address])[0] ?? '' } : null,
    replyTo: addresses([replyTo?.address])[0] ?? null,
    to: addresses(mailboxes(mail.to).map((mailbox) => mailbox.address)),
    toNames: mailboxes(mail.to)
      .map((mailbox) => normalizeText(mailbox.name ?? '').trim())
      .filter((name) => name !== ''),
    deliveredTo: addresses(mail.headers.filter((header) => header.key === 'delivered-to').map((header) => header.value.trim())),
    messageId: mail.messageId?.trim() || null,
    dateHeader: mail.headers.find((header) => header.key === 'date')?.value ?? null,
    text: relaxedText(normalizeText(text.text)).trim(),
    truncated: bytes !== raw || Boolean(html?.cut) || text.cut || subject.cut,
  };
}
