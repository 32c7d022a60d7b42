import PostalMime from 'postal-mime';
import { flattenHtml } from './html-flattener';
import { normalizeText } from './text-normalizer';

/** The parts of a MIME message that the notice parser and the intake records read. */
export interface MimeFacts {
  subject: string;
  from: { name: string; address: string } | null;
  replyTo: string | null;
  to: string[];
  deliveredTo: string[];
  messageId: string | null;
  dateHeader: string | null;
  /** Plain text, or the HTML flattened when there is no text part; line endings and spaces normalised. */
  text: string;
}

const mailboxes = (addresses: PostalMime.Address[] | undefined): PostalMime.Mailbox[] =>
  (addresses ?? []).flatMap((address) => (address.group ? address.group : [address]));

/** Decodes the MIME structure (encodings, charsets, RFC 2047 words). Null when postal-mime cannot read it at all. */
export async function readMime(raw: Uint8Array): Promise<MimeFacts | null> {
  let mail: PostalMime.Email;
  try {
    mail = await PostalMime.parse(raw);
  } catch {
    return null;
  }
  const [from] = mailboxes(mail.from ? [mail.from] : undefined);
  const [replyTo] = mailboxes(mail.replyTo);
  const text = mail.text?.trim() ? mail.text : mail.html ? flattenHtml(mail.html) : '';
  return {
    subject: normalizeText(mail.subject ?? ''),
    from: from ? { name: normalizeText(from.name ?? '').trim(), address: from.address ?? '' } : null,
    replyTo: replyTo?.address || null,
    to: mailboxes(mail.to).map((mailbox) => mailbox.address),
    deliveredTo: mail.headers.filter((header) => header.key === 'delivered-to').map((header) => header.value.trim()),
    messageId: mail.messageId?.trim() || null,
    dateHeader: mail.headers.find((header) => header.key === 'date')?.value ?? null,
    text: normalizeText(text).trim(),
  };
}
