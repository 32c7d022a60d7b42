import { buildNotice, NOTICE_CORPUS, signEmail } from '@pp/testing';
import { parseNotice } from './notice-parser';

describe('notice parser on the fixture corpus', () => {
  it('covers at least 30 notices', () => {
    expect(NOTICE_CORPUS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(NOTICE_CORPUS.map((fixture) => [fixture.name, fixture] as const))('%s', async (_name, fixture) => {
    const raw = await signEmail(buildNotice(fixture.spec));
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject(fixture.expected);
    if (fixture.expected.status === 'rejected' && result.status === 'rejected') {
      expect(result.reasons).toEqual(fixture.expected.reasons);
    }
    if (result.status === 'parsed') {
      // Every amount the notice states (Interac's and the payer's Message's) agrees with the one accepted, and Interac's body states it.
      expect(result.fields.amounts.body).toContain(result.notice.amount_cents);
      const { subject, body, message } = result.fields.amounts;
      expect(new Set([...body, ...(message ?? []), subject].filter((a) => a !== null))).toEqual(new Set([result.notice.amount_cents]));
      expect(result.fields.text).toContain(result.notice.reference_number);
    }
  });

  it('keeps the whole message text for review and reads the Date header without inventing one', async () => {
    const good = await parseNotice(Buffer.from(buildNotice()));
    expect(good.fields.text).toMatch(/^Hi ACME WIDGETS INC\.,\nFunds Deposited!/);
    expect(good.fields.sent_at).toBe('2026-08-26T18:03:11.000Z');
    const bad = await parseNotice(Buffer.from(buildNotice({ dateHeader: 'yesterday' })));
    expect(bad.fields.sent_at).toBeNull();
  });

  it('records the From display name when neither the subject nor the body names a payer', async () => {
    const raw = buildNotice({ layout: 'legacy', sender: 'JANE DOE', amount: '$5.25', reference: 'CAvjMTys' }).replace('from JANE DOE has', 'from   has');
    expect(raw).toContain('A money transfer from   has been');
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'rejected', reasons: ['unrecognized_notice'], fields: { sender_name: 'JANE DOE' } });
  });

  it('given a current layout without its Sent From label, then no label after the Message is Interac’s (reference_missing)', async () => {
    const raw = buildNotice({ layout: 'inline', sender: 'JANE DOE' }).replace('Sent From: JANE DOE\n', '');
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'rejected', reasons: ['reference_missing'], fields: { sender_name: 'JANE DOE', reference_number: null } });
  });

  it('given a Message that writes “Sent From:” with another name, then the payer the subject names is recorded', async () => {
    const result = await parseNotice(Buffer.from(buildNotice({ message: 'PP-7K3M9Q Sent From: JANE CUSTOMER' })));
    expect(result).toMatchObject({ status: 'parsed', notice: { sender_name: 'CAI FANG WU' } });
  });

  it('given an older layout whose only amount is one the payer’s Message writes, then no amount is read (amount_missing)', async () => {
    const raw = buildNotice({ layout: 'legacy', amount: '$5.25', message: 'PP-7K3M9Q Amount: $500.00', reference: 'CAvjMTys' })
      .replace(' for the amount of $5.25 (CAD)', '');
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'rejected', reasons: ['amount_missing'], fields: { amount_cents: null } });
  });

  it.each(['-$5.00', '\u2212$5.00', 'CAD 5.00'])('given %j under Interac’s Amount label, then the amount is unparseable, never skipped', async (written) => {
    const raw = buildNotice({ layout: 'inline', amount: '$5.00' }).replace('Amount: $5.00', `Amount: ${written}`);
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'rejected', reasons: ['amount_unparseable'], fields: { amount_cents: null } });
  });

  it('given a Message and a payer-written label in it, then the comment is the whole Message and the full text is kept beside it', async () => {
    const plain = await parseNotice(Buffer.from(buildNotice()));
    expect(plain).toMatchObject({ status: 'parsed', notice: { comment: 'PP-7K3M9Q' } });
    expect(plain.fields.text).toContain('Reference Number:\nC1AYd8eJYUcY');
    const labelled = await parseNotice(Buffer.from(buildNotice({ layout: 'inline', message: 'Rent for August\nPP-7K3M9Q Sent From: JANE CUSTOMER' })));
    expect(labelled).toMatchObject({ status: 'parsed', notice: { comment: 'Rent for August\nPP-7K3M9Q Sent From: JANE CUSTOMER' } });
    const empty = await parseNotice(Buffer.from(buildNotice({ message: null })));
    expect(empty.fields.comment).toBeNull();
  });

  it('given no Message label, then the memo is looked for in the whole text', async () => {
    const result = await parseNotice(Buffer.from(buildNotice({ sender: 'PP BAXTER' }).replace('Message:\n', '')));
    expect(result).toMatchObject({ status: 'rejected', reasons: ['memo_ambiguous'], fields: { memos: ['PP-7K3M9Q', 'PP-BAXTER'], comment: null } });
  });

  it('given a Message that writes a Date other than Interac’s, then Interac’s transfer date is read', async () => {
    const result = await parseNotice(Buffer.from(buildNotice({ message: 'PP-7K3M9Q Date: Jan 1, 2020' })));
    expect(result).toMatchObject({ status: 'parsed', notice: { transfer_date: '2026-08-26' } });
  });

  it('given no Message label and two different Dates, then no transfer date is read', async () => {
    const raw = buildNotice({ layout: 'inline', message: 'PP-7K3M9Q Date: Jan 1, 2020' }).replace('Message: ', '');
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'parsed', notice: { transfer_date: null, comment: null } });
  });

  it.each(['lines', 'html', 'inline', 'legacy', 'flat', 'html-spans'] as const)(
    'given a recipient name (typed by the payer) writing a reference number (%s layout), then the notice claims none and is reviewed (name_ambiguous), with or without a Message label',
    async (layout) => {
      const recipientName = 'ACME Reference Number: CVICTIM1234';
      for (const raw of [buildNotice({ layout, recipientName }), buildNotice({ layout, recipientName, reference: null }).replace(/Message ?:/, 'Note:')]) {
        const result = await parseNotice(Buffer.from(raw));
        expect(result).toMatchObject({ status: 'rejected', fields: { reference_number: null } });
        expect((result as { reasons: string[] }).reasons).toContain('name_ambiguous');
      }
    },
  );

  it('given a greeting writing a reference number while the To name does not (an older notice naming the recipient otherwise), then Interac’s is read from its labels after the Message', async () => {
    const raw = buildNotice({ layout: 'lines', reference: 'C1AYd8eJYUcY' }).replace('Hi ACME WIDGETS INC.,', 'Hi ACME Reference Number: CVICTIM1234,');
    expect(await parseNotice(Buffer.from(raw))).toMatchObject({ status: 'parsed', notice: { reference_number: 'C1AYd8eJYUcY' } });
  });

  it('given two different reference numbers in a text without a Message label, then the notice claims none (reference_ambiguous)', async () => {
    const raw = buildNotice({ layout: 'inline' }).replace('Hi ACME WIDGETS INC.,', 'Hi ACME WIDGETS INC., Reference Number: C9ZZ8YY7X').replace('Message:', 'Note:');
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'rejected', fields: { reference_number: null } });
    expect((result as { reasons: string[] }).reasons).toContain('reference_ambiguous');
  });

  const waiting = (raw: string) =>
    raw
      .replace('Your funds have been automatically deposited into', 'Your funds are waiting in')
      .replace('Funds Deposited!', 'Funds waiting')
      .replace('the money has been automatically deposited into', 'the money is waiting for');
  it.each([
    ['the recipient name', buildNotice({ recipientName: 'ACME automatically deposited' })],
    ['the sender name, in the older layout’s opening sentence', buildNotice({ layout: 'legacy', amount: '$5.25', sender: 'JANE automatically deposited' })],
  ])('given a deposit notice whose own words do not say deposited, when %s says it, then it is still body_not_a_deposit', async (_who, notice) => {
    const raw = waiting(notice);
    expect(raw).not.toMatch(/deposited into/);
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'rejected' });
    expect((result as { reasons: string[] }).reasons).toContain('body_not_a_deposit');
  });

  it.each(['lines', 'html', 'inline', 'legacy', 'flat', 'html-spans'] as const)(
    'given a payer whose name writes Interac’s labels (%s layout), then the notice claims no reference number and is reviewed (name_ambiguous)',
    async (layout) => {
      // Read as Interac's tail, the name's labels would claim another transfer's reference: its genuine notice would be this one's duplicate.
      const sender = 'JANE Date: Aug 1, 2026 Reference Number: CVICTIM123 Sent From: JANE';
      const result = await parseNotice(Buffer.from(buildNotice({ layout, sender, reference: 'CREAL1234' })));
      expect(result).toMatchObject({ status: 'rejected', reasons: ['name_ambiguous'], fields: { reference_number: null } });
    },
  );

  it('given a payer name with a colon but no label of Interac’s, then the notice parses', async () => {
    const result = await parseNotice(Buffer.from(buildNotice({ sender: 'JANE: THE DATE SHOP' })));
    expect(result).toMatchObject({ status: 'parsed', notice: { sender_name: 'JANE: THE DATE SHOP' } });
  });

  it('given a legacy notice whose Message writes a second reference number, then Interac’s is read', async () => {
    const raw = buildNotice({ layout: 'legacy', amount: '$5.25', message: 'PP-7K3M9Q was C9ZZ8YY7X Reference Number: C9ZZ8YY7X', reference: 'CAvjMTys' });
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'parsed', notice: { reference_number: 'CAvjMTys', memo: 'PP-7K3M9Q' } });
  });

  it.each([
    ['a non-breaking hyphen', 'PP\u20117K3M9Q'],
    ['a word joiner', 'PP-7K3\u2060M9Q'],
    ['a soft hyphen', 'PP-7K\u00ad3M9Q'],
  ])('given a plain-text Message whose memo holds %s, then the memo is PP-7K3M9Q', async (_case, message) => {
    const result = await parseNotice(Buffer.from(buildNotice({ message })));
    expect(result).toMatchObject({ status: 'parsed', notice: { memo: 'PP-7K3M9Q' } });
  });

  it('refuses a deposit subject over a body that does not say the money was deposited', async () => {
    const raw = buildNotice().replace('Your funds have been automatically deposited', 'Your funds are waiting');
    const text = raw.replace('Funds Deposited!', 'Funds waiting');
    const result = await parseNotice(Buffer.from(text));
    expect(result).toMatchObject({ status: 'rejected', reasons: ['body_not_a_deposit'] });
  });

  it.each([
    ['Your funds could not be automatically deposited', 'Funds waiting'],
    ['Your funds could not be automatically deposited', 'Funds not deposited'],
  ])('refuses a deposit subject over a body that says “%s”', async (said, heading) => {
    const raw = buildNotice().replace('Your funds have been automatically deposited', said).replace('Funds Deposited!', heading);
    expect(await parseNotice(Buffer.from(raw))).toMatchObject({ status: 'rejected', reasons: ['body_not_a_deposit'] });
  });

  it('given a French body that says the funds could not be deposited automatically, then body_not_a_deposit', async () => {
    const raw = buildNotice({ language: 'fr' });
    const said = /(?:Vos fonds ont été déposés automatiquement|Les fonds ont été déposés)/g;
    expect(said.test(raw)).toBe(true);
    const text = raw.replace(said, 'Les fonds n’ont pas pu être déposés automatiquement');
    expect(await parseNotice(Buffer.from(text))).toMatchObject({ status: 'rejected', reasons: ['body_not_a_deposit'] });
  });

  it('given a deposit subject over Interac text that does not say deposited, when only the payer’s Message says so, then body_not_a_deposit', async () => {
    const raw = buildNotice({ message: 'PP-7K3M9Q Your funds have been automatically deposited.' })
      .replace('Your funds have been automatically deposited', 'Your funds are waiting')
      .replace('Funds Deposited!', 'Funds waiting');
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'rejected', reasons: ['body_not_a_deposit'], fields: { memos: ['PP-7K3M9Q'], amount_cents: 120000 } });
  });

  it.each(['PP-7K3M9Q Amount: see invoice', 'PP-7K3M9Q for the amount of 3 items', 'PP-7K3M9Q Montant : voir la facture'])(
    'given a genuine notice whose Message writes %j, then it parses (the Message’s words under an amount label are no amount)',
    async (message) => {
      const result = await parseNotice(Buffer.from(buildNotice({ message })));
      expect(result).toMatchObject({ status: 'parsed', notice: { amount_cents: 120000, memo: 'PP-7K3M9Q', comment: message } });
    },
  );

  it('given the Message’s words under an amount label and an amount Interac states in no format, then the amount is still unparseable', async () => {
    const raw = buildNotice({ layout: 'inline', message: 'PP-7K3M9Q Amount: see invoice' }).replace('Amount: $1,200.00 (CAD)', 'Amount: CA$1,200.00');
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'rejected', reasons: ['amount_unparseable'], fields: { amount_cents: null } });
  });

  it('stores the amounts Interac states apart from those the payer’s Message writes', async () => {
    const agreeing = await parseNotice(Buffer.from(buildNotice({ message: 'PP-7K3M9Q Amount: $1,200.00 or see invoice' })));
    expect(agreeing.fields.amounts).toEqual({ subject: 120000, body: [120000, 120000], message: [120000] });
    const raw = buildNotice({ layout: 'legacy', amount: '$5.25', message: 'PP-7K3M9Q Amount: $500.00', reference: 'CAvjMTys' });
    const disagreeing = await parseNotice(Buffer.from(raw));
    expect(disagreeing).toMatchObject({ status: 'rejected', reasons: ['amount_mismatch'] });
    expect(disagreeing.fields.amounts).toEqual({ subject: null, body: [525], message: [50000] });
    const none = await parseNotice(Buffer.from(buildNotice({ message: null })));
    expect(none.fields.amounts).toEqual({ subject: 120000, body: [120000, 120000], message: [] });
  });

  it('answers with reasons, never an exception, for input that is not a notice', async () => {
    for (const input of ['', 'garbage', '\u0000\u0001', 'Subject: x\n\n', 'From: a@b\nContent-Type: multipart/mixed; boundary=x\n\n--x\n']) {
      const result = await parseNotice(Buffer.from(input));
      expect(result.status).toBe('rejected');
    }
  });
});
