import { randomBytes } from 'node:crypto';

export type FixtureNoticeKind = 'deposit' | 'not_deposited' | 'reminder' | 'cancelled' | 'expired' | 'declined';

/**
 * - lines: current layout, each label on its own line and its value on the next
 * - inline: current layout, "Label: value"
 * - legacy: older layout, the amount inside a sentence
 * - html: HTML-only mail laid out in a table
 * - html-spans: HTML-only mail without block elements (flattens to one line)
 * - flat: plain text on one line, as some forwarders produce
 */
export type FixtureLayout = 'lines' | 'inline' | 'legacy' | 'html' | 'html-spans' | 'flat';

export interface NoticeSpec {
  kind?: FixtureNoticeKind;
  language?: 'en' | 'fr';
  layout?: FixtureLayout;
  sender?: string;
  fromMailbox?: string;
  fromDomain?: string;
  recipientName?: string;
  to?: string;
  /** The amount as printed in the body, without "(CAD)". */
  amount?: string;
  /** The amount as printed in the subject (current layouts); defaults to `amount`. */
  subjectAmount?: string;
  /** The payer's message; null leaves the Message field empty. */
  message?: string | null;
  reference?: string | null;
  date?: string;
  replyTo?: string;
  messageId?: string;
  subject?: string;
  /** Uppercase "INTERAC" in the subject, as older notices write it. */
  upperCasePrefix?: boolean;
  crlf?: boolean;
  /** Wraps body lines at this many columns. */
  wrap?: number;
  encoding?: '8bit' | 'base64' | 'quoted-printable';
  /** Raw header lines added before the others (e.g. a fake Authentication-Results). */
  extraHeaders?: string[];
  dateHeader?: string;
}

const EN_FOOTER =
  'For your security, please do not forward this email ... Interac will never request access to this email notification from you.';
const FR_FOOTER =
  'Pour votre sécurité, ne transférez pas ce courriel ... Interac ne vous demandera jamais l\u2019accès à cet avis par courriel.';

/** A raw Interac e-Transfer notification (unsigned) built from a spec; the defaults give Sample 1 of the research note. */
export function buildNotice(spec: NoticeSpec = {}): string {
  const s = withDefaults(spec);
  const html = s.layout === 'html' || s.layout === 'html-spans';
  const lines = bodyLines(s);
  const text = html
    ? renderHtml(lines, s.layout === 'html-spans')
    : s.layout === 'flat'
      ? lines.join(' ')
      : lines.flatMap((line) => (s.wrap ? wrap(line, s.wrap) : [line])).join('\n');
  const eol = s.crlf ? '\r\n' : '\n';
  const headers = [
    ...s.extraHeaders,
    `From: ${mailbox(s.sender, `${s.fromMailbox}@${s.fromDomain}`)}`,
    ...(s.replyTo ? [`Reply-To: ${mailbox(s.sender, s.replyTo)}`] : []),
    `To: ${mailbox(s.recipientName, s.to)}`,
    `Subject: ${encodeWord(s.subject)}`,
    `Date: ${s.dateHeader}`,
    `Message-ID: ${s.messageId}`,
    'MIME-Version: 1.0',
    `Content-Type: text/${html ? 'html' : 'plain'}; charset=utf-8`,
    `Content-Transfer-Encoding: ${s.encoding}`,
  ];
  return [...headers, '', encodeBody(text, s.encoding)].join('\n').replace(/\n/g, eol) + eol;
}

type Full = Required<Omit<NoticeSpec, 'message' | 'reference' | 'replyTo' | 'wrap'>> &
  Pick<NoticeSpec, 'replyTo' | 'wrap'> & { message: string | null; reference: string | null };

function withDefaults(spec: NoticeSpec): Full {
  const fr = spec.language === 'fr';
  const kind = spec.kind ?? 'deposit';
  const layout = spec.layout ?? 'lines';
  const sender = spec.sender ?? (fr ? 'ELORIE BRAEN' : 'CAI FANG WU');
  const amount = spec.amount ?? (fr ? '25,00 $' : '$1,200.00');
  const s = {
    kind,
    language: spec.language ?? 'en',
    layout,
    sender,
    fromMailbox: spec.fromMailbox ?? 'notify',
    fromDomain: spec.fromDomain ?? 'payments.interac.ca',
    recipientName: spec.recipientName ?? (fr ? 'JE CHEMINE INC.' : 'ACME WIDGETS INC.'),
    to: spec.to ?? 'payments@acme.example',
    amount,
    subjectAmount: spec.subjectAmount ?? amount,
    message: spec.message === undefined ? 'PP-7K3M9Q' : spec.message,
    reference: spec.reference === undefined ? (fr ? 'C1AVzjTtqRCM' : 'C1AYd8eJYUcY') : spec.reference,
    date: spec.date ?? (fr ? '31 août 2026' : 'Aug 26, 2026'),
    replyTo: spec.replyTo,
    messageId: spec.messageId ?? `<${randomBytes(8).toString('hex')}.notify@payments.interac.ca>`,
    upperCasePrefix: spec.upperCasePrefix ?? layout === 'legacy',
    crlf: spec.crlf ?? false,
    wrap: spec.wrap,
    encoding: spec.encoding ?? '8bit',
    extraHeaders: spec.extraHeaders ?? [],
    dateHeader: spec.dateHeader ?? 'Wed, 26 Aug 2026 14:03:11 -0400',
    subject: '',
  };
  return { ...s, subject: spec.subject ?? subjectFor(s) };
}

function subjectFor(s: Omit<Full, 'subject'>): string {
  const fr = s.language === 'fr';
  const prefix = fr ? `Virement ${s.upperCasePrefix ? 'INTERAC' : 'Interac'} :` : `${s.upperCasePrefix ? 'INTERAC' : 'Interac'} e-Transfer:`;
  const who = s.sender;
  const legacy = s.layout === 'legacy';
  const text: Record<FixtureNoticeKind, string> = fr
    ? {
        deposit: legacy
          ? `Un virement de fonds de ${who} a été déposé automatiquement.`
          : `Vous avez reçu ${s.subjectAmount} de ${who} et ce montant a été déposé automatiquement.`,
        not_deposited: `${who} vous a envoyé de l'argent.`,
        reminder: `Rappel : ${who} vous a envoyé de l'argent.`,
        cancelled: `Le virement de ${who} a été annulé.`,
        expired: `Le virement de ${who} a expiré.`,
        declined: `Le virement à ${who} a été refusé.`,
      }
    : {
        deposit: legacy
          ? `A money transfer from ${who} has been automatically deposited.`
          : `You've received ${s.subjectAmount} from ${who} and it has been automatically deposited.`,
        not_deposited: `${who} sent you money.`,
        reminder: `Reminder: ${who} sent you money.`,
        cancelled: `The money transfer from ${who} was cancelled.`,
        expired: `The money transfer from ${who} has expired.`,
        declined: `Your money transfer to ${who} was declined.`,
      };
  return `${prefix} ${text[s.kind]}`;
}

/** Body lines; labels and values are separate entries in the 'lines' layout. */
function bodyLines(s: Full): string[] {
  const fr = s.language === 'fr';
  const field = (label: string, value: string | null): string[] => {
    if (s.layout === 'lines') return value === null ? [label] : [label, value];
    return [value === null ? label : `${label} ${value}`];
  };
  const L = fr
    ? { message: 'Message :', date: 'Date :', reference: 'Numéro de référence :', sender: 'Envoyé par :', amount: 'Montant :' }
    : { message: 'Message:', date: 'Date:', reference: 'Reference Number:', sender: 'Sent From:', amount: 'Amount:' };
  const details = [
    ...field(L.message, s.message),
    ...field(L.date, s.date),
    ...(s.reference === null ? [] : field(L.reference, s.reference)),
    ...field(L.sender, s.sender),
    ...field(L.amount, `${s.amount} (CAD)`),
  ];
  if (s.kind !== 'deposit') {
    const opening = fr ? `${s.sender} vous a envoyé ${s.amount} (CAD).` : `${s.sender} sent you ${s.amount} (CAD).`;
    const action = fr ? 'Pour déposer votre argent, cliquez sur le lien suivant.' : 'To deposit your money, click on the following link.';
    return [fr ? `Bonjour ${s.recipientName},` : `Hi ${s.recipientName},`, opening, action, ...details, fr ? FR_FOOTER : EN_FOOTER];
  }
  if (s.layout === 'legacy') {
    const sentence = fr
      ? `${s.sender} vous a envoyé un virement de fonds d'un montant de ${s.amount} (CAD) et l'argent a été déposé automatiquement dans votre compte bancaire à Desjardins.`
      : `${s.sender} has sent you a money transfer for the amount of ${s.amount} (CAD) and the money has been automatically deposited into your bank account at Scotiabank.`;
    const reference = s.reference === null ? [] : [fr ? `Numéro de référence : ${s.reference}` : `Reference Number : ${s.reference}`];
    return [fr ? `Bonjour ${s.recipientName},` : `Hi ${s.recipientName},`, sentence, `Message${fr ? ' :' : ':'} ${s.message ?? ''}`.trimEnd(), ...reference];
  }
  return fr
    ? [
        `Bonjour ${s.recipientName},`,
        'Les fonds ont été déposés!',
        s.amount,
        'Vos fonds ont été déposés automatiquement dans votre compte à la Desjardins.',
        'Compte dont le numéro se termine par 5485',
        'Précisions sur le virement',
        ...details,
        FR_FOOTER,
      ]
    : [
        `Hi ${s.recipientName},`,
        'Funds Deposited!',
        s.amount,
        'Your funds have been automatically deposited into your account at TD Canada Trust.',
        'Account ending in 8048',
        'Transfer Details',
        ...details,
        EN_FOOTER,
      ];
}

const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\u00a0/g, '&nbsp;')
    .replace(/\$/g, '&#36;')
    .replace(/é/g, '&eacute;');

function renderHtml(lines: string[], spansOnly: boolean): string {
  const head = '<html><head><title>Interac e-Transfer</title><style>td { font-family: Arial; }</style></head><body>';
  if (spansOnly) return `${head}${lines.map((line) => `<span>${escapeHtml(line)}</span> `).join('')}</body></html>`;
  const rows = lines.map((line) => {
    const label = /^(.+?:)\s+(.+)$/.exec(line);
    return label
      ? `<tr><td class="label">${escapeHtml(label[1])}</td><td><strong>${escapeHtml(label[2])}</strong></td></tr>`
      : `<tr><td colspan="2"><p>${escapeHtml(line)}</p></td></tr>`;
  });
  return `${head}\n<table>\n${rows.join('\n')}\n</table>\n<!-- tracking -->\n</body></html>`;
}

function wrap(line: string, width: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current && current.length + 1 + word.length > width) {
      out.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  return [...out, current];
}

const isAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);
const encodeWord = (text: string) => (isAscii(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`);
const mailbox = (name: string, address: string) => `${isAscii(name) ? `"${name}"` : encodeWord(name)} <${address}>`;

function encodeBody(text: string, encoding: Full['encoding']): string {
  if (encoding === 'base64') return Buffer.from(text, 'utf8').toString('base64').replace(/.{76}/g, '$&\n');
  if (encoding === '8bit') return text;
  return text.split('\n').map(quotedPrintableLine).join('\n');
}

/** One line in quoted-printable, with soft breaks that never split an "=XX" escape. */
function quotedPrintableLine(line: string): string {
  const tokens = [...Buffer.from(line, 'utf8')].map((byte) =>
    byte === 0x3d || byte > 0x7e || (byte < 0x20 && byte !== 0x09) ? `=${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte),
  );
  const out: string[] = [];
  let current = '';
  for (const token of tokens) {
    if (current.length + token.length > 75) {
      out.push(`${current}=`);
      current = '';
    }
    current += token;
  }
  return [...out, current].join('\n');
}
