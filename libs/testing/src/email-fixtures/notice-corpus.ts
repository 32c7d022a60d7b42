import type { NoticeSpec } from './interac-notice.builder';

/** What the ingest parser must make of a fixture (a subset of its result, compared with toMatchObject). */
export type ExpectedParse =
  | {
      status: 'parsed';
      notice: {
        amount_cents: number;
        memo: string;
        reference_number: string;
        sender_name: string;
        language: 'en' | 'fr';
        sender_email?: string | null;
        transfer_date?: string | null;
      };
    }
  | {
      status: 'rejected';
      reasons: string[];
      fields?: { kind?: string; amount_cents?: number | null; reference_number?: string | null; memos?: string[] };
    };

export interface CorpusCase {
  name: string;
  spec: NoticeSpec;
  expected: ExpectedParse;
}

const NBSP = '\u00a0';
const NNBSP = '\u202f';

const sample1 = { amount_cents: 120000, memo: 'PP-7K3M9Q', reference_number: 'C1AYd8eJYUcY', sender_name: 'CAI FANG WU', language: 'en' as const };
const sample2 = { amount_cents: 2500, memo: 'PP-7K3M9Q', reference_number: 'C1AVzjTtqRCM', sender_name: 'ELORIE BRAEN', language: 'fr' as const };
const parsed = (notice: Extract<ExpectedParse, { status: 'parsed' }>['notice']): ExpectedParse => ({ status: 'parsed', notice });
const rejected = (reasons: string[], fields?: Extract<ExpectedParse, { status: 'rejected' }>['fields']): ExpectedParse => ({
  status: 'rejected',
  reasons,
  ...(fields ? { fields } : {}),
});

/**
 * Interac notifications covering every variation docs/INGEST-FORMATS.md
 * describes, each with its expected parse.
 * Built unsigned; tests sign them with testDkimKey().
 */
export const NOTICE_CORPUS: CorpusCase[] = [
  // Layouts and languages
  { name: 'EN current layout, label and value on separate lines (sample 1)', spec: {}, expected: parsed({ ...sample1, transfer_date: '2026-08-26', sender_email: null }) },
  { name: 'EN current layout, "Label: value"', spec: { layout: 'inline' }, expected: parsed(sample1) },
  {
    name: 'FR current layout, "Label : value" with words around the memo (sample 2)',
    spec: { language: 'fr', layout: 'inline', message: 'Élorie Braën PP-7K3M9Q' },
    expected: parsed({ ...sample2, transfer_date: '2026-08-31' }),
  },
  { name: 'FR current layout, label and value on separate lines', spec: { language: 'fr' }, expected: parsed(sample2) },
  {
    name: 'EN older layout, amount in a sentence, catch@ sender, Reply-To (sample 3)',
    spec: {
      layout: 'legacy', fromMailbox: 'catch', sender: 'SAMPLE TENANT', recipientName: 'SAMPLE LANDLORD', amount: '$5.25',
      reference: 'CAvjMTys', replyTo: 'sample.tenant@example.com',
    },
    expected: parsed({ amount_cents: 525, memo: 'PP-7K3M9Q', reference_number: 'CAvjMTys', sender_name: 'SAMPLE TENANT', language: 'en', sender_email: 'sample.tenant@example.com' }),
  },
  {
    name: 'FR older layout, amount in a sentence',
    spec: { language: 'fr', layout: 'legacy', sender: 'JEAN TREMBLAY', amount: '5,25 $', reference: 'CAbcDEfg' },
    expected: parsed({ amount_cents: 525, memo: 'PP-7K3M9Q', reference_number: 'CAbcDEfg', sender_name: 'JEAN TREMBLAY', language: 'fr' }),
  },
  { name: 'EN HTML-only mail in a table', spec: { layout: 'html' }, expected: parsed({ ...sample1, transfer_date: '2026-08-26' }) },
  {
    name: 'FR HTML-only mail, entities and no-break spaces',
    spec: { language: 'fr', layout: 'html', amount: `1${NBSP}234,56${NBSP}$` },
    expected: parsed({ ...sample2, amount_cents: 123456 }),
  },
  { name: 'EN HTML-only mail without blocks (flattens to one line)', spec: { layout: 'html-spans' }, expected: parsed(sample1) },
  { name: 'FR HTML-only mail without blocks', spec: { language: 'fr', layout: 'html-spans' }, expected: parsed(sample2) },
  { name: 'EN plain text flattened to one line', spec: { layout: 'flat' }, expected: parsed({ ...sample1, transfer_date: '2026-08-26' }) },
  { name: 'EN CRLF line endings', spec: { crlf: true }, expected: parsed(sample1) },
  { name: 'FR CRLF line endings, inline layout', spec: { language: 'fr', layout: 'inline', crlf: true }, expected: parsed(sample2) },
  {
    name: 'EN older layout wrapped at 40 columns',
    spec: { layout: 'legacy', wrap: 40, amount: '$5.25', reference: 'CAvjMTys' },
    expected: parsed({ ...sample1, amount_cents: 525, reference_number: 'CAvjMTys' }),
  },
  { name: 'EN current layout wrapped at 30 columns', spec: { layout: 'inline', wrap: 30 }, expected: parsed(sample1) },
  { name: 'FR base64 transfer encoding', spec: { language: 'fr', encoding: 'base64' }, expected: parsed(sample2) },
  { name: 'FR quoted-printable HTML', spec: { language: 'fr', layout: 'html', encoding: 'quoted-printable' }, expected: parsed(sample2) },
  { name: 'EN uppercase INTERAC prefix on the current layout', spec: { upperCasePrefix: true }, expected: parsed(sample1) },
  { name: 'catch@payments.interac.ca sender on the current layout', spec: { fromMailbox: 'catch' }, expected: parsed(sample1) },
  // Amounts
  { name: 'amount $1,020.00', spec: { amount: '$1,020.00' }, expected: parsed({ ...sample1, amount_cents: 102000 }) },
  { name: 'amount $200.00 (CAD)', spec: { layout: 'inline', amount: '$200.00' }, expected: parsed({ ...sample1, amount_cents: 20000 }) },
  { name: 'French amount with U+00A0 thousands', spec: { language: 'fr', amount: `1${NBSP}234,56 $` }, expected: parsed({ ...sample2, amount_cents: 123456 }) },
  { name: 'French amount with U+202F thousands', spec: { language: 'fr', layout: 'inline', amount: `1${NNBSP}234,56${NNBSP}$` }, expected: parsed({ ...sample2, amount_cents: 123456 }) },
  { name: 'French amount "98, 00 $"', spec: { language: 'fr', amount: '98, 00 $' }, expected: parsed({ ...sample2, amount_cents: 9800 }) },
  {
    name: 'subject and body amounts disagree',
    spec: { subjectAmount: '$1,300.00' },
    expected: rejected(['amount_mismatch'], { amount_cents: null, reference_number: 'C1AYd8eJYUcY' }),
  },
  { name: 'body amount in a broken format', spec: { amount: '$1,20.00', subjectAmount: '$120.00' }, expected: rejected(['amount_unparseable']) },
  {
    name: 'EN older layout, an amount no format reads ("CA$5.25") and the payer’s Message writing another under an Amount label',
    spec: { layout: 'legacy', amount: 'CA$5.25', message: 'PP-7K3M9Q Amount: $500.00', reference: 'CAvjMTys' },
    expected: rejected(['amount_unparseable'], { amount_cents: null, memos: ['PP-7K3M9Q'] }),
  },
  {
    name: 'EN older layout, the payer’s Message writing another amount under an Amount label',
    spec: { layout: 'legacy', amount: '$5.25', message: 'PP-7K3M9Q Amount: $500.00', reference: 'CAvjMTys' },
    expected: rejected(['amount_mismatch'], { amount_cents: null }),
  },
  { name: 'the payer’s Message writing this transfer’s amount under an Amount label', spec: { message: 'PP-7K3M9Q Amount: $1,200.00' }, expected: parsed(sample1) },
  { name: 'the payer’s Message writing words under an Amount label ("Amount: see invoice")', spec: { message: 'PP-7K3M9Q Amount: see invoice' }, expected: parsed(sample1) },
  {
    name: 'FR older layout, the payer’s Message writing words after an amount phrase ("d’un montant de 3 articles")',
    spec: { language: 'fr', layout: 'legacy', sender: 'JEAN TREMBLAY', amount: '5,25 $', reference: 'CAbcDEfg', message: "PP-7K3M9Q commande d'un montant de 3 articles" },
    expected: parsed({ amount_cents: 525, memo: 'PP-7K3M9Q', reference_number: 'CAbcDEfg', sender_name: 'JEAN TREMBLAY', language: 'fr' }),
  },
  // Memos
  { name: 'memo in lower case', spec: { message: 'pp-7k3m9q' }, expected: parsed(sample1) },
  { name: 'memo without its dash', spec: { layout: 'inline', message: 'PP7K3M9Q' }, expected: parsed(sample1) },
  { name: 'memo with a space and lower case', spec: { message: 'pp 7k3m9q' }, expected: parsed(sample1) },
  { name: 'memo surrounded by words', spec: { layout: 'inline', message: 'Invoice 42 payment PP-7K3M9Q thanks!' }, expected: parsed(sample1) },
  { name: 'memo on the line after the message text', spec: { layout: 'inline', message: 'Rent for August\nPP-7K3M9Q' }, expected: parsed(sample1) },
  { name: 'same memo written twice', spec: { message: 'PP-7K3M9Q (pp7k3m9q)' }, expected: parsed(sample1) },
  {
    name: 'no memo: the empty Message field is followed by the Date label',
    spec: { message: null },
    expected: rejected(['memo_missing'], { memos: [], amount_cents: 120000, reference_number: 'C1AYd8eJYUcY' }),
  },
  { name: 'no memo: a message without one', spec: { layout: 'inline', message: 'Thanks for the widgets' }, expected: rejected(['memo_missing'], { memos: [] }) },
  { name: 'two different memos', spec: { message: 'PP-7K3M9Q or PP-4H8WXY' }, expected: rejected(['memo_ambiguous'], { memos: ['PP-7K3M9Q', 'PP-4H8WXY'] }) },
  // Other fields
  { name: 'reference number missing', spec: { reference: null }, expected: rejected(['reference_missing'], { reference_number: null }) },
  {
    name: 'the payer’s message quotes another transfer’s reference number under the label: Interac’s is read',
    spec: { message: 'PP-7K3M9Q balance of Reference Number: C9ZZ8YY7X' },
    expected: parsed(sample1),
  },
  {
    name: 'no reference from Interac, one the payer’s message writes: none is read',
    spec: { reference: null, message: 'PP-7K3M9Q Reference Number: C9ZZ8YY7X' },
    expected: rejected(['reference_missing'], { reference_number: null, memos: ['PP-7K3M9Q'] }),
  },
  { name: 'the payer’s message repeats this transfer’s own reference number', spec: { message: 'PP-7K3M9Q Reference Number: C1AYd8eJYUcY' }, expected: parsed(sample1) },
  { name: 'payer named like a cancelled notice', spec: { sender: 'CANCELLED CORP' }, expected: parsed({ ...sample1, sender_name: 'CANCELLED CORP' }) },
  { name: 'payer named like a memo ("PP BAXTER")', spec: { sender: 'PP BAXTER' }, expected: parsed({ ...sample1, sender_name: 'PP BAXTER' }) },
  { name: 'EN date "Sept 13, 2026"', spec: { date: 'Sept 13, 2026' }, expected: parsed({ ...sample1, transfer_date: '2026-09-13' }) },
  { name: 'FR date "1 sept. 2026"', spec: { language: 'fr', layout: 'inline', date: '1 sept. 2026' }, expected: parsed({ ...sample2, transfer_date: '2026-09-01' }) },
  // Not payments
  { name: 'EN "sent you money" (not deposited)', spec: { kind: 'not_deposited', upperCasePrefix: true }, expected: rejected(['not_a_deposit'], { kind: 'not_deposited' }) },
  { name: 'FR "vous a envoyé de l\'argent" (not deposited)', spec: { language: 'fr', kind: 'not_deposited', upperCasePrefix: true }, expected: rejected(['not_a_deposit'], { kind: 'not_deposited' }) },
  { name: 'EN reminder', spec: { kind: 'reminder', upperCasePrefix: true }, expected: rejected(['not_a_deposit'], { kind: 'reminder' }) },
  { name: 'FR reminder', spec: { language: 'fr', kind: 'reminder' }, expected: rejected(['not_a_deposit'], { kind: 'reminder' }) },
  { name: 'EN cancelled', spec: { kind: 'cancelled' }, expected: rejected(['not_a_deposit'], { kind: 'cancelled' }) },
  { name: 'EN expired', spec: { kind: 'expired' }, expected: rejected(['not_a_deposit'], { kind: 'expired' }) },
  { name: 'FR declined', spec: { language: 'fr', kind: 'declined' }, expected: rejected(['not_a_deposit'], { kind: 'declined' }) },
  { name: 'unrelated subject', spec: { subject: 'Your statement is ready' }, expected: rejected(['unrecognized_notice'], { kind: 'unknown' }) },
];
