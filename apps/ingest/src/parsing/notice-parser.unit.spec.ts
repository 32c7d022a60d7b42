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
      // Every amount the notice states agrees with the one accepted.
      expect([result.fields.amounts.subject ?? result.notice.amount_cents, ...result.fields.amounts.body]).toEqual(
        expect.arrayContaining([result.notice.amount_cents]),
      );
      expect(new Set([...result.fields.amounts.body, result.fields.amounts.subject].filter((a) => a !== null))).toEqual(
        new Set([result.notice.amount_cents]),
      );
      expect(result.notice.comment).toContain(result.notice.reference_number);
    }
  });

  it('keeps the whole message text as the comment and reads the Date header without inventing one', async () => {
    const good = await parseNotice(Buffer.from(buildNotice()));
    expect(good.fields.comment).toMatch(/^Hi ACME WIDGETS INC\.,\nFunds Deposited!/);
    expect(good.fields.sent_at).toBe('2026-08-26T18:03:11.000Z');
    const bad = await parseNotice(Buffer.from(buildNotice({ dateHeader: 'yesterday' })));
    expect(bad.fields.sent_at).toBeNull();
  });

  it('falls back to the From display name when the body names no payer', async () => {
    const raw = buildNotice({ layout: 'inline', sender: 'JANE DOE' }).replace('Sent From: JANE DOE\n', '');
    const result = await parseNotice(Buffer.from(raw));
    expect(result).toMatchObject({ status: 'parsed', notice: { sender_name: 'JANE DOE' } });
  });

  it('given a Message that writes “Sent From:” with another name, then the payer the subject names is recorded', async () => {
    const result = await parseNotice(Buffer.from(buildNotice({ message: 'PP-7K3M9Q Sent From: JANE CUSTOMER' })));
    expect(result).toMatchObject({ status: 'parsed', notice: { sender_name: 'CAI FANG WU' } });
  });

  it('refuses a deposit subject over a body that does not say the money was deposited', async () => {
    const raw = buildNotice().replace('Your funds have been automatically deposited', 'Your funds are waiting');
    const text = raw.replace('Funds Deposited!', 'Funds waiting');
    const result = await parseNotice(Buffer.from(text));
    expect(result).toMatchObject({ status: 'rejected', reasons: ['body_not_a_deposit'] });
  });

  it('answers with reasons, never an exception, for input that is not a notice', async () => {
    for (const input of ['', 'garbage', '\u0000\u0001', 'Subject: x\n\n', 'From: a@b\nContent-Type: multipart/mixed; boundary=x\n\n--x\n']) {
      const result = await parseNotice(Buffer.from(input));
      expect(result.status).toBe('rejected');
    }
  });
});
