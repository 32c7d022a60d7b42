import { buildNotice, type NoticeSpec } from '@pp/testing';
import type { AuthenticationFailure, AuthenticationResult } from '../authentication/authentication.types';
import { unauthenticated } from '../authentication/notice-authenticator';
import { parseNotice, unreadableNotice } from '../parsing/notice-parser';
import { type ProcessedEmail, storedAuthentication } from '../processing/processed-email';
import { planMatching, recipientsOf, UNKNOWN_SENDER } from './matching-plan';

const SIGNED_TO_SHOP = { signed_recipient: 'pay@shop.example', reasons: [] };
const AUTHENTICATED: AuthenticationResult = { authenticated: true, signing_domain: 'payments.interac.ca', selector: 's', from: 'notify@payments.interac.ca', recipient: SIGNED_TO_SHOP, signatures: [] };
const FORGED: AuthenticationResult = {
  authenticated: false,
  reasons: ['dkim_failed', 'header_not_unique:from'],
  from: 'notify@payments.interac.ca',
  recipient: { signed_recipient: null, reasons: ['recipient_not_signed'] },
};

/** Given a notice built from `spec` and an authentication verdict, the e-mail matching receives. */
async function processed(spec: NoticeSpec, authentication = AUTHENTICATED, recipients = { to: ['Pay@Shop.example'], delivered_to: [] as string[] }): Promise<ProcessedEmail> {
  const parse = await parseNotice(Buffer.from(buildNotice(spec)));
  const status = !authentication.authenticated ? 'unauthenticated' : parse.status;
  return { email_id: 'em_test0001', received_at: '2026-08-26T18:03:11.000Z', status, authentication, parse, recipients };
}

describe('planMatching', () => {
  it('records a clean authenticated deposit with its memo, amount and evidence, and no reason', async () => {
    const plan = await processed({ message: 'thanks pp 7k3m9q', amount: '$12.34' }).then(planMatching);
    expect(plan).toEqual({
      action: 'record',
      recipients: ['pay@shop.example'],
      transfer: expect.objectContaining({
        email_id: 'em_test0001',
        memo: 'PP-7K3M9Q',
        amount: 1234,
        sender_name: 'CAI FANG WU',
        reference_number: 'C1AYd8eJYUcY',
        evidence: { authenticated: true, authentication_reasons: [], signed_recipient: 'pay@shop.example', recipient_reasons: [], parse_reasons: [] },
      }),
    });
  });

  it('given a comment and a sender name with an emoji across their limits, then the cut drops the emoji whole, not half of it', async () => {
    const email = await processed({});
    const emoji = '\u{1F600}';
    const fields = { ...email.parse.fields, comment: `${'a'.repeat(1999)}${emoji}`, sender_name: `${'B'.repeat(254)}${emoji}` };
    const parse = (email.parse.status === 'parsed' ? { ...email.parse, fields, notice: { ...email.parse.notice, sender_name: fields.sender_name } } : { ...email.parse, fields }) as ProcessedEmail['parse'];
    expect(planMatching({ ...email, parse })).toMatchObject({ transfer: { comment: 'a'.repeat(1999), sender_name: 'B'.repeat(254) } });
  });

  it.each(['not_deposited', 'reminder', 'cancelled', 'expired', 'declined'] as const)('records no payment for a %s notice, authenticated or not', async (kind) => {
    expect(planMatching(await processed({ kind }))).toEqual({ action: 'skip', disposition: 'no_payment' });
    expect(planMatching(await processed({ kind }, FORGED))).toEqual({ action: 'skip', disposition: 'no_payment' });
  });

  it.each([
    'Interac e-Transfer: JOHN SMITH has sent you a money request.',
    'INTERAC e-Transfer: JOHN SMITH requested money from you.',
    'Virement INTERAC : JOHN SMITH vous a envoyé une demande de fonds.',
    'Interac e-Transfer: Your money transfer to JOHN SMITH was deposited.',
    'Virement INTERAC : Votre virement de fonds à JOHN SMITH a été déposé.',
    'Interac e-Transfer: JOHN SMITH has declined your money request.',
    'Interac e-Transfer: JOHN SMITH cancelled the money transfer.',
    'Virement INTERAC : JOHN SMITH a refusé votre demande de fonds.',
  ])('given a signed notice of a money request or of the merchant’s own transfer (%s), then no payment, whatever memo and amount it names', async (subject) => {
    const email = await processed({ subject, message: 'PP-7K3M9Q', amount: '$1,200.00' });
    expect(email.parse.fields.kind).not.toBe('unknown');
    expect(planMatching(email)).toEqual({ action: 'skip', disposition: 'no_payment' });
  });

  it('given a payer named like a money request in a deposit’s subject, then it is still the deposit it is', async () => {
    const email = await processed({ subject: "Interac e-Transfer: You've received $25.00 from JOHN has sent you a money request and it has been automatically deposited." });
    expect(email.parse.fields.kind).toBe('deposit');
  });

  it('given a signed Interac notice of a kind the parser does not know, then it is reviewed with its amount but no memo: it must never complete a session', async () => {
    const email = await processed({ subject: 'Interac e-Transfer: JOHN SMITH did something new.', message: 'PP-7K3M9Q', amount: '$1,200.00' });
    expect(email.parse.fields.memos).toEqual(['PP-7K3M9Q']);
    expect(planMatching(email)).toMatchObject({ action: 'record', transfer: { memo: null, amount: 120000, evidence: { authenticated: true, parse_reasons: ['unrecognized_notice'] } } });
  });

  it('ignores unauthenticated mail that is no Interac notice, but reviews an authenticated one it cannot read', async () => {
    expect(planMatching(await processed({ subject: 'Lunch on Friday?' }, FORGED))).toEqual({ action: 'skip', disposition: 'not_a_notice' });
    const plan = planMatching(await processed({ subject: 'Interac e-Transfer: something new' }));
    expect(plan).toMatchObject({ action: 'record', transfer: { evidence: { authenticated: true, parse_reasons: ['unrecognized_notice'] } } });
  });

  it('given an e-mail whose authentication and reading both gave up, then it is recorded for review with both reasons, never dropped', () => {
    const email: ProcessedEmail = {
      email_id: 'em_test0001', received_at: '2026-08-26T18:03:11.000Z', status: 'unauthenticated',
      authentication: unauthenticated('auth_timeout'), parse: unreadableNotice(null, 'parse_timeout'), recipients: { to: [], delivered_to: [] },
    };
    expect(planMatching(email)).toMatchObject({
      action: 'record',
      recipients: [],
      transfer: { memo: null, amount: 0, evidence: { authenticated: false, authentication_reasons: ['auth_timeout'], parse_reasons: ['parse_timeout'] } },
    });
    const killed = { ...email, authentication: unauthenticated('auth_failed'), parse: unreadableNotice(null, 'parse_failed') };
    expect(planMatching(killed)).toMatchObject({ action: 'record' });
  });

  it('given unauthenticated mail of which only one check gave up, then it is still no notice when the other shows it is none', async () => {
    const lunch = await processed({ subject: 'Lunch on Friday?' }, { ...FORGED, reasons: ['auth_timeout'] });
    expect(planMatching(lunch)).toEqual({ action: 'skip', disposition: 'not_a_notice' });
    const unsigned = await processed({}, { ...FORGED, reasons: ['dkim_missing'] });
    expect(planMatching({ ...unsigned, parse: unreadableNotice(null, 'parse_timeout') })).toEqual({ action: 'skip', disposition: 'not_a_notice' });
  });

  it('given a rejected parse recorded without a reason, then parse_incomplete is handed on, so that the policy reviews it', async () => {
    const email = await processed({});
    const plan = planMatching({ ...email, status: 'rejected', parse: { status: 'rejected', reasons: [], fields: email.parse.fields } });
    expect(plan).toMatchObject({ action: 'record', transfer: { evidence: { parse_reasons: ['parse_incomplete'] } } });
  });

  it('given a notice with a Message, then its comment is the Message, not the whole text', async () => {
    const plan = planMatching(await processed({ message: 'Rent for August PP-7K3M9Q' }));
    expect(plan).toMatchObject({ action: 'record', transfer: { comment: 'Rent for August PP-7K3M9Q' } });
  });

  const DEPOSITED = {
    en: "Interac e-Transfer: You've received $25.00 from CAI FANG WU and it has been automatically deposited.",
    fr: 'Virement Interac : Vous avez reçu 25,00 $ de CAI FANG WU et ce montant a été déposé automatiquement.',
  };

  it.each([
    ['Fwd: ', 'en'],
    ['FW: [EXTERNAL] ', 'en'],
    ['[External] ', 'en'],
    ['TR : ', 'fr'],
    ['EXTERNAL: ', 'en'],
    ['WG: ', 'en'],
  ] as const)('given an unsigned deposit notice forwarded or tagged with “%s”, then it is recorded for review with its evidence, never dropped', async (mark, language) => {
    const marked = await processed({ language, subject: `${mark}${DEPOSITED[language]}` }, FORGED);
    expect(marked.parse.fields.kind).toBe('deposit');
    expect(planMatching(marked)).toMatchObject({ action: 'record', transfer: { memo: 'PP-7K3M9Q', evidence: { authenticated: false } } });
  });

  it('given an unsigned deposit notice a mail gateway tagged at the end (“… [EXTERNAL]”), then it is recorded for review, never dropped', async () => {
    const tagged = await processed({ subject: `${DEPOSITED.en} [EXTERNAL] [SUSPECT]` }, FORGED);
    expect(tagged.parse.fields.kind).toBe('deposit');
    expect(planMatching(tagged)).toMatchObject({ action: 'record', transfer: { memo: 'PP-7K3M9Q', evidence: { authenticated: false } } });
  });

  it('given an unsigned forwarded notice that is not a deposit, then no payment; a forwarded mail of no notice is still none', async () => {
    expect(planMatching(await processed({ kind: 'cancelled', subject: 'Fwd: Interac e-Transfer: Your money transfer to CAI FANG WU was cancelled.' }, FORGED))).toEqual({
      action: 'skip',
      disposition: 'no_payment',
    });
    expect(planMatching(await processed({ subject: 'Fwd: Lunch on Friday?' }, FORGED))).toEqual({ action: 'skip', disposition: 'not_a_notice' });
  });

  it('carries every authentication reason and the recipient facts as evidence, deciding nothing', async () => {
    const plan = planMatching(await processed({}, FORGED));
    expect(plan).toMatchObject({
      action: 'record',
      transfer: {
        memo: 'PP-7K3M9Q',
        amount: 120000,
        evidence: { authenticated: false, authentication_reasons: ['dkim_failed', 'header_not_unique:from'], signed_recipient: null, recipient_reasons: ['recipient_not_signed'] },
      },
    });
  });

  it('given a stored outcome with more authentication reasons than record-transfer takes, then the evidence holds 20, the last headline reason among them', async () => {
    const singletons = ['from', 'subject', 'date', 'message-id', 'reply-to', 'mime-version', 'content-type', 'content-transfer-encoding', 'content-disposition'] as const;
    const covered = ['from', 'subject', 'mime-version', 'content-type', 'content-transfer-encoding', 'content-disposition'] as const;
    // The most the authenticator records today (20), and one more code after them, as a later version may add.
    const reasons: AuthenticationFailure[] = [
      'bare_carriage_return',
      'header_line_malformed',
      ...singletons.map((header) => `header_not_unique:${header}` as const),
      'from_not_trusted',
      'dkim_body_length_tag',
      'dkim_headers_not_covered',
      ...covered.map((header) => `header_not_signed:${header}` as const),
      'from_not_aligned',
    ];
    expect(reasons).toHaveLength(21);
    const plan = planMatching(await processed({}, { ...FORGED, reasons }));
    const sent = plan.action === 'record' ? plan.transfer.evidence.authentication_reasons : [];
    expect(sent).toHaveLength(20);
    expect(sent).toEqual(expect.arrayContaining(['dkim_headers_not_covered', 'from_not_aligned']));
  });

  it('records amount 0 with the parse reason when the amount cannot be read, and no memo when it is missing', async () => {
    const unreadable = planMatching(await processed({ amount: '$abc', subjectAmount: '$abc' }));
    expect(unreadable).toMatchObject({ action: 'record', transfer: { amount: 0, evidence: { parse_reasons: expect.arrayContaining(['amount_unparseable']) } } });
    const mismatch = planMatching(await processed({ amount: '$10.00', subjectAmount: '$20.00' }));
    expect(mismatch).toMatchObject({ action: 'record', transfer: { amount: 0, evidence: { parse_reasons: ['amount_mismatch'] } } });
    const memoless = planMatching(await processed({ message: null }));
    expect(memoless).toMatchObject({ action: 'record', transfer: { memo: null, amount: 120000, evidence: { parse_reasons: ['memo_missing'] } } });
  });

  it('fills what record-transfer requires when the notice lacks it, and clips long text', async () => {
    const email = await processed({});
    const fields = { ...email.parse.fields, sender_name: null, reference_number: null, comment: 'x'.repeat(5000) };
    const plan = planMatching({ ...email, status: 'rejected', parse: { status: 'rejected', reasons: ['sender_missing', 'reference_missing'], fields } });
    expect(plan).toMatchObject({ action: 'record', transfer: { sender_name: UNKNOWN_SENDER, reference_number: null, evidence: { parse_reasons: ['sender_missing', 'reference_missing'] } } });
    expect(plan.action === 'record' && plan.transfer.comment!.length).toBe(2000);
    const split = planMatching({ ...email, parse: { ...email.parse, fields: { ...fields, comment: `  ${'x'.repeat(1999)}\u{1f600} thanks` } } });
    expect(split.action === 'record' && split.transfer.comment).toBe('x'.repeat(1999));
  });
});

describe('an outcome recorded before the recipient rule', () => {
  it('still routes by its To, but proves no signed recipient', async () => {
    const legacy: Partial<AuthenticationResult> = { ...AUTHENTICATED };
    delete legacy.recipient;
    const email = await processed({}, storedAuthentication(legacy as AuthenticationResult));
    const plan = planMatching(email);
    expect(plan).toMatchObject({ action: 'record', recipients: ['pay@shop.example'], transfer: { evidence: { signed_recipient: null, recipient_reasons: ['recipient_not_signed'] } } });
  });
});

describe('recipientsOf', () => {
  it('lists To before Delivered-To, bare, lowercased and once each', async () => {
    const email = await processed({}, AUTHENTICATED, { to: ['Pay@Shop.example', 'not an address'], delivered_to: ['<pay@shop.example>', 'Inbox+acme@Platform.example'] });
    expect(recipientsOf(email)).toEqual(['pay@shop.example', 'inbox+acme@platform.example']);
  });

  it('puts the signed recipient first, before To headers prepended above the signature', async () => {
    const signedToPayer = { ...AUTHENTICATED, recipient: { signed_recipient: 'payer@attacker.example', reasons: ['recipient_not_unique' as const] } };
    const email = await processed({}, signedToPayer, { to: ['pay@shop.example', 'payer@attacker.example'], delivered_to: ['pay@shop.example'] });
    expect(recipientsOf(email)).toEqual(['payer@attacker.example', 'pay@shop.example']);
  });

  it('reads a value made to make a pattern backtrack (a Delivered-To of half a million @) in one pass, and drops it', async () => {
    const hostile = `<${'@'.repeat(500_000)}`;
    const email = await processed({}, AUTHENTICATED, { to: [`Shop <${'@'.repeat(900)}>`], delivered_to: [hostile, hostile] });
    expect(recipientsOf(email)).toEqual(['pay@shop.example']);
  });

  it('looks up at most 20 addresses, none longer than an address can be', async () => {
    const many = Array.from({ length: 60 }, (_, i) => `r${i}@shop.example`);
    const email = await processed({}, AUTHENTICATED, { to: [`${'x'.repeat(320)}@shop.example`, ...many], delivered_to: [] });
    expect(recipientsOf(email)).toEqual(['pay@shop.example', ...many.slice(0, 19)]);
  });
});
