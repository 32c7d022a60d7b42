import fc from 'fast-check';
import { buildNotice, NOTICE_CORPUS, type NoticeSpec } from '@pp/testing';
import { parseNotice } from './notice-parser';
import type { NoticeParseResult } from './notice.types';

/** Plain-text deposits in every layout and language whose amount is written out at least twice (subject, headline, label). */
const DEPOSITS: NoticeSpec[] = [
  {},
  { layout: 'inline' },
  { language: 'fr' },
  { language: 'fr', layout: 'inline', amount: '1\u00a0234,56 $' },
  { layout: 'flat', amount: '$1,020.00' },
  { language: 'fr', amount: '98, 00 $', crlf: true },
];

/** Whatever the input, a parse that was accepted never hides an amount that disagrees with it. */
function assertConsistent(result: NoticeParseResult): void {
  expect(['parsed', 'rejected']).toContain(result.status);
  if (result.status !== 'parsed') {
    expect(result.reasons.length).toBeGreaterThan(0);
    return;
  }
  const stated = [result.fields.amounts.subject, ...result.fields.amounts.body, ...(result.fields.amounts.message ?? [])].filter((amount) => amount !== null);
  expect(stated.length).toBeGreaterThan(0);
  expect(stated).toEqual(stated.map(() => result.notice.amount_cents));
  expect(result.fields.memos).toEqual([result.notice.memo]);
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.string({ maxLength: 6 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ unit: 'binary', maxLength: 40 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('duplicate-line' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(raw: string, m: Mutation): string {
  const at = m.at % (raw.length + 1);
  switch (m.kind) {
    case 'replace':
      return raw.slice(0, at) + m.text + raw.slice(at + m.text.length);
    case 'insert':
      return raw.slice(0, at) + m.text + raw.slice(at);
    case 'delete':
      return raw.slice(0, at) + raw.slice(at + m.length);
    case 'duplicate-line': {
      const lines = raw.split('\n');
      const i = m.at % lines.length;
      return [...lines.slice(0, i + 1), lines[i], ...lines.slice(i + 1)].join('\n');
    }
  }
}

describe('notice parser under fuzzing', () => {
  it('never throws on arbitrary input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary', maxLength: 2000 }), fc.uint8Array({ maxLength: 2000 })), async (input) => {
        const bytes = typeof input === 'string' ? Buffer.from(input) : input;
        assertConsistent(await parseNotice(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and stays consistent on mutated notices of every kind in the corpus', async () => {
    const specs = NOTICE_CORPUS.map((fixture) => fixture.spec);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...specs), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (spec, mutations) => {
        const raw = mutations.reduce(mutate, buildNotice({ ...spec, messageId: '<fuzz@payments.interac.ca>' }));
        assertConsistent(await parseNotice(Buffer.from(raw)));
      }),
      { numRuns: 400 },
    );
  });

  it('rejects a deposit in which one written amount was changed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...DEPOSITS), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 9 }), async (spec, which, digit, shift) => {
        const raw = buildNotice({ ...spec, messageId: '<fuzz@payments.interac.ca>' });
        const amount = spec.amount ?? (spec.language === 'fr' ? '25,00 $' : '$1,200.00');
        const occurrences = [...raw.matchAll(new RegExp(amount.replace(/[$.]/g, '\\$&'), 'g'))].map((match) => match.index);
        expect(occurrences.length).toBeGreaterThanOrEqual(2);
        const start = occurrences[which % occurrences.length];
        const digits = [...amount].flatMap((char, i) => (/\d/.test(char) ? [i] : []));
        const position = start + digits[digit % digits.length];
        const changed = String((Number(raw[position]) + shift) % 10);
        const tampered = raw.slice(0, position) + changed + raw.slice(position + 1);

        const result = await parseNotice(Buffer.from(tampered));
        expect(result.status).toBe('rejected');
        if (result.status === 'rejected') {
          expect(result.reasons).toContainEqual(expect.stringMatching(/^(amount_mismatch|amount_unparseable)$/));
        }
      }),
      { numRuns: 300 },
    );
  });
});
