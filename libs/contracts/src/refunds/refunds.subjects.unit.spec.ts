import 'reflect-metadata';
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  CompleteRefundBody,
  CompleteRefundCommand,
  FailRefundBody,
  RejectRefundBody,
  RejectRefundCommand,
  RequestRefundBody,
  RequestRefundCommand,
} from './refunds.subjects';

/** The messages a body is refused with (none: taken). */
const refusals = <T extends object>(type: ClassConstructor<T>, body: Record<string, unknown>) =>
  validateSync(plainToInstance(type, body)).flatMap((error) => Object.values(error.constraints ?? {}));

const completion = (outbound_reference: unknown) => ({ outbound_reference, evidence_note: 'Bank shows the deposit' });
const ADMIN = { refund_id: 'rf_abcdefgh', admin_id: 'adm_1' };
const SHAPE = 'outbound_reference must be the bank’s reference: letters, digits, spaces and . _ / -, starting with a letter or digit';

describe('a live completion’s outbound reference (PRODUCT-RULES §2.5)', () => {
  it.each(['CA77', 'C1AYd8eJYUcY', ' CA 77 ', 'CA-mer_r1-4', 'REF 2026/11.22', 'x'.repeat(64)])('takes the bank’s reference %p', (reference) => {
    expect(refusals(CompleteRefundBody, completion(reference))).toEqual([]);
    expect(refusals(CompleteRefundCommand, { ...ADMIN, ...completion(reference) })).toEqual([]);
  });

  it.each([
    ['a zero-width space inside', 'CA\u200b77'],
    ['a no-break space inside', 'CA\u00a077'],
    ['a tab inside', 'CA\t77'],
    ['a line break inside', 'CA\n77'],
    ['a letter outside ASCII, which JavaScript and Postgres upper-case differently', 'CAß77'],
    ['punctuation first', '-CA77'],
    ['a character no bank reference has', 'CA#77'],
  ])('refuses one with %s', (_case, reference) => {
    expect(refusals(CompleteRefundBody, completion(reference))).toEqual([SHAPE]);
    expect(refusals(CompleteRefundCommand, { ...ADMIN, ...completion(reference) })).toEqual([SHAPE]);
  });

  it('refuses one longer than any bank’s, which a thousand CJK characters would make too long for the index: 400, not 500', () => {
    expect(refusals(CompleteRefundBody, completion('x'.repeat(65)))).toEqual(['outbound_reference must be at most 64 characters']);
    expect(refusals(CompleteRefundBody, completion('款'.repeat(1000)))).toEqual(expect.arrayContaining(['outbound_reference must be at most 64 characters', SHAPE]));
  });

  it('given only spaces: it is required, and only that', () => {
    expect(refusals(CompleteRefundBody, completion('   '))).toEqual(['outbound_reference is required']);
  });
});

describe('refund free text', () => {
  const TEXTS: Array<[ClassConstructor<object>, string, Record<string, unknown>]> = [
    [RequestRefundBody, 'reason', { payment_id: 'txn_abcdefgh' }],
    [RequestRefundCommand, 'reason', { merchant_id: 'mer_1', livemode: true, payment_id: 'txn_abcdefgh', requested_by: 'usr_1' }],
    [RejectRefundBody, 'rejection_reason', {}],
    [RejectRefundCommand, 'rejection_reason', ADMIN],
    [CompleteRefundBody, 'evidence_note', { outbound_reference: 'CA77' }],
    [FailRefundBody, 'failure_reason', {}],
  ];
  const cases = TEXTS.map(([type, field, rest]) => [type.name, field, type, rest] as const);

  it.each(cases)('%s takes a %s of any script, with lines, tabs and joined emoji', (_name, field, type, rest) => {
    expect(refusals(type, { ...rest, [field]: 'Le client a changé d’avis — 返金\n\t2 articles 👍🏽 👩\u200d💻' })).toEqual([]);
  });

  const REFUSED = ['\u0000', '\u0007', '\u001b', '\r', '\u0085', '\u202e', '\u2066', '\ud83d'];
  const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

  it.each(cases.flatMap(([name, field, type, rest]) => REFUSED.map((c) => [name, field, codePoint(c), type, rest, c] as const)))(
    '%s refuses a %s holding %s: Postgres refuses it, or it reads otherwise than it is',
    (_name, field, _shown, type, rest, character) => {
      expect(refusals(type, { ...rest, [field]: `Customer${character} changed their mind` })).toEqual([`${field} must not contain control or invisible formatting characters`]);
    },
  );
});
