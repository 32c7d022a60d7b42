import fc from 'fast-check';
import { findMemos } from '@pp/kernel';
import { buildNotice } from '@pp/testing';
import { cpuTime } from '../worker/cpu-time.fixture';
import { flattenHtml } from './html-flattener';
import { type NoticeReading, extractNotice, readNotice } from './notice-parser';
import type { MimeFacts } from './mime-reader';
import { PARSE_LIMITS } from './parse-limits';

/*
 * Adversarial shapes against everything the parser runs on untrusted mail
 * (issue 13 §5). Each check is a regression guard against super-linear work,
 * not a speed measurement (that is `npm run bench`, PRODUCT-RULES §D6): budgets are
 * CPU time of this process, so that other work on a shared machine does not
 * count, and sit far above what the linear code needs yet far below what the
 * old patterns took on the same input (5 s for 40,000 spaces after "PP",
 * minutes for 512 KB of unclosed "<", hours for 5 MB).
 *
 * Whole messages carry no line bombs (millions of short lines): postal-mime,
 * which decodes the MIME structure, is slow on those whatever we do, and the
 * worker's deadline is what stops them (notice-reader.unit.spec.ts).
 */
/**
 * A whole raw message of up to 5 MB: MIME decoding of its first MiB, then the capped parse (linear:
 * 10–150 ms on a quiet machine). Process CPU time still counts the garbage collector's threads, which
 * on a loaded CI worker took one 5 MB shape past 1 s, so the budget leaves a 30x margin; the old
 * patterns needed minutes on the same input.
 */
const MESSAGE_BUDGET_MS = 5_000;
/** Field extraction and memo search on text at its 32 KiB cap (linear: a few ms; the old memo pattern: seconds). */
const TEXT_BUDGET_MS = 200;
/** Flattening HTML at its 512 KiB cap (linear: under 100 ms; the old regexes: minutes). */
const HTML_BUDGET_MS = 500;

const MB5 = 5 * 1024 * 1024;

const repeatTo = (fragment: string, length: number) => fragment.repeat(Math.ceil(length / fragment.length)).slice(0, length);

/** A raw message with this body (and optionally headers) and the given content type. */
function message(body: string, type = 'text/plain'): Buffer {
  return Buffer.from(
    [
      'From: "Interac" <notify@payments.interac.ca>',
      'To: payments@acme.example',
      'Subject: Interac e-Transfer: You\'ve received $12.00 from JANE and it has been automatically deposited.',
      'Date: Wed, 26 Aug 2026 14:03:11 -0400',
      'Message-ID: <hostile@payments.interac.ca>',
      'MIME-Version: 1.0',
      `Content-Type: ${type}; charset=utf-8`,
      'Content-Transfer-Encoding: 8bit',
      '',
      body,
    ].join('\n'),
  );
}

/** A short message whose header `name` has this value instead. */
const withHeader = (name: string, value: string): Buffer =>
  Buffer.from(message('x').toString().replace(new RegExp(`^${name}: .*$`, 'm'), `${name}: ${value}`));

/** Shapes that made the old regular expressions backtrack, each about 5 MB (built when its test runs). */
const HOSTILE_MESSAGES: Array<[string, () => Buffer]> = [
  ['whitespace run after PP', () => message('PP' + ' '.repeat(MB5))],
  ['mixed special spaces after PP', () => message('PP' + repeatTo(' \u00a0\u202f\t', MB5 / 2))],
  ['dash between two whitespace runs', () => message('PP' + ' '.repeat(MB5 / 2) + '-' + ' '.repeat(MB5 / 2))],
  ['"PP " repeated', () => message(repeatTo('PP ', MB5))],
  ['memo-like runs that never complete', () => message(repeatTo('PP-7K3M9 ', MB5))],
  ['label followed by a whitespace run', () => message('Reference' + ' '.repeat(MB5))],
  ['labels without values', () => message(repeatTo('Amount: Montant : ', MB5))],
  ['long digit run after an amount lead', () => message('Funds Deposited! $' + '1'.repeat(MB5))],
  ['digit run ending in a comma', () => message('Amount: $' + '9'.repeat(MB5) + ',')],
  ['French thousands groups without a dollar sign', () => message('Amount: ' + repeatTo('1 234 ', MB5))],
  ['amount leads repeated', () => message(repeatTo('for the amount of $1', MB5))],
  ['only "<"', () => message('<'.repeat(MB5), 'text/html')],
  ['a comment that never ends', () => message('<!--' + 'a'.repeat(MB5), 'text/html')],
  ['nested comments', () => message(repeatTo('<!--<!-- ', MB5 / 2) + repeatTo('--> ', MB5 / 2), 'text/html')],
  ['thousands of unclosed elements', () => message(repeatTo('<div><span>', MB5), 'text/html')],
  ['unclosed elements then stray end tags', () => message(repeatTo('<a>', MB5 / 2) + repeatTo('</b>', MB5 / 2), 'text/html')],
  ['a head that never closes', () => message('<head>' + 'x '.repeat(MB5 / 2), 'text/html')],
  ['a tag whose attributes never end', () => message('<td ' + repeatTo('a="<" ', MB5), 'text/html')],
  ['entities without semicolons', () => message(repeatTo('&amp&#', MB5), 'text/html')],
  ['"<" before PP and spaces', () => message(repeatTo('<PP   ', MB5), 'text/html')],
  ['a long subject', () => withHeader('Subject', `Interac e-Transfer: You've received ${repeatTo(' from ', 900_000)}`)],
  ['a Date header of parentheses', () => withHeader('Date', `2026 ${'('.repeat(500_000)}`)],
];

describe('parsing hostile mail', () => {
  it.each(HOSTILE_MESSAGES)('reads a message with %s within the CPU budget, never throwing', async (_shape, build) => {
    const raw = build();
    const { ms, result } = await cpuTime(() => readNotice(raw));
    expect(ms).toBeLessThan(MESSAGE_BUDGET_MS);
    expect(result.parse.status).toBe('rejected');
    expect(result.facts?.text.length ?? 0).toBeLessThanOrEqual(PARSE_LIMITS.textChars);
  });

  it('marks a message read only in part as message_too_long, so it can never confirm', async () => {
    const genuine = buildNotice({ message: 'PP-7K3M9Q' });
    const padded = genuine + 'x'.repeat(PARSE_LIMITS.textChars);
    const result = await readNotice(Buffer.from(padded));
    expect(result.facts?.truncated).toBe(true);
    expect(result.parse).toMatchObject({ status: 'rejected', reasons: ['message_too_long'], fields: { memos: ['PP-7K3M9Q'], amount_cents: 120000 } });
    expect((await readNotice(Buffer.from(genuine))).parse.status).toBe('parsed');
  });

  it('keeps text that Postgres could not store (NUL, half a surrogate pair) out of what it hands on', async () => {
    const raw = message('Message:\nPP-7K3M9Q\u0000\ud800 thanks').toString().replace(/^Subject: .*$/m, 'Subject: =?UTF-8?B?YQBi?=');
    const { facts } = await readNotice(Buffer.from(raw));
    expect(facts).toMatchObject({ subject: 'ab', text: 'Message:\nPP-7K3M9Q\ufffd thanks' });
  });

  it('hands on no address holding a NUL or another control character, however it was encoded', async () => {
    const nulAddress = '=?utf-8?B?PGEAYkBzaG9wLmV4YW1wbGU+?='; // <a\0b@shop.example>
    const raw = buildNotice({ extraHeaders: ['Delivered-To: c\u0000d@shop.example', 'Delivered-To: pay@shop.example', `Reply-To: ${nulAddress}`] })
      .replace(/^To: .*$/m, `To: ${nulAddress}, pay@shop.example`);
    const { facts } = await readNotice(Buffer.from(raw));
    expect(facts?.deliveredTo).toEqual(['pay@shop.example']);
    expect(facts?.to).toContain('pay@shop.example');
    expect([...(facts?.to ?? []), facts?.replyTo ?? ''].filter((address) => /[\u0000-\u001f]/.test(address))).toEqual([]);
  });

  describe('each stage on input at its cap', () => {
    const text = (body: string): MimeFacts => ({
      subject: "Interac e-Transfer: You've received $12.00 from JANE and it has been automatically deposited.",
      from: null, replyTo: null, to: [], toNames: [], deliveredTo: [], messageId: null, dateHeader: null, truncated: false,
      text: body.slice(0, PARSE_LIMITS.textChars),
    });
    const cap = PARSE_LIMITS.textChars;

    it.each([
      ['a whitespace run after PP', 'PP' + ' '.repeat(cap)],
      ['labels followed by whitespace runs', repeatTo('Reference      Numéro     de ', cap)],
      ['amount leads with long digit runs', repeatTo('Funds Deposited! $' + '1'.repeat(2000) + ',', cap)],
      ['dates that never parse', repeatTo('Date: 1er ' + 'x'.repeat(50) + ' ', cap)],
      ['labels on lines of their own', repeatTo('Amount:\nMontant :\n\n', cap)],
      ['special spaces and line breaks after PP', 'PP' + repeatTo(' \u00a0\u202f\t\n', cap)],
    ])('extracts the fields of text with %s within the budget', async (_shape, body) => {
      const { ms } = await cpuTime(() => extractNotice(text(body)));
      expect(ms).toBeLessThan(TEXT_BUDGET_MS);
    });

    it.each([
      ['only "<"', '<'.repeat(PARSE_LIMITS.htmlChars)],
      ['unclosed elements', repeatTo('<div><b>', PARSE_LIMITS.htmlChars)],
      ['an unclosed comment', '<!--' + '-'.repeat(PARSE_LIMITS.htmlChars)],
      ['unclosed tags with attributes', repeatTo('<p class="x" ', PARSE_LIMITS.htmlChars)],
    ])('flattens HTML with %s within the budget', async (_shape, html) => {
      const { ms } = await cpuTime(() => flattenHtml(html));
      expect(ms).toBeLessThan(HTML_BUDGET_MS);
    });

    it('finds memos within the budget in any mix of memo fragments and whitespace', async () => {
      const fragment = fc.constantFrom('PP', 'pp', '-', ' ', '\u00a0', '\u202f', '\n', '7K3', 'M9Q', 'x', '<');
      await fc.assert(
        fc.asyncProperty(fc.array(fragment, { minLength: 1, maxLength: 12 }), async (fragments) => {
          const body = repeatTo(fragments.join(''), cap);
          const { ms } = await cpuTime(() => findMemos(body));
          expect(ms).toBeLessThan(TEXT_BUDGET_MS);
        }),
        { numRuns: 100 },
      );
    });
  });

  it('reads a genuine notice the same way after all of that', async () => {
    const reading: NoticeReading = await readNotice(Buffer.from(buildNotice({ layout: 'html' })));
    expect(reading.parse).toMatchObject({ status: 'parsed', notice: { memo: 'PP-7K3M9Q', amount_cents: 120000 } });
  });
});
