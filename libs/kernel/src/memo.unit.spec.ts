import { findMemos, generateMemo, MEMO_PATTERN, normalizeMemo, withoutInvisible } from './memo';

describe('memo', () => {
  it('generates PP- plus six characters without look-alikes', () => {
    for (let i = 0; i < 2000; i++) {
      const memo = generateMemo();
      expect(memo).toMatch(MEMO_PATTERN);
      expect(memo.slice(3)).not.toMatch(/[01OIL]/);
    }
  });

  it.each([
    ['PP-7K3M9Q', ['PP-7K3M9Q']],
    ['pp 7k3m9q', ['PP-7K3M9Q']],
    ['Élorie Braën PP-7K3M9Q', ['PP-7K3M9Q']],
    ['payment for pp7k3m9q thanks', ['PP-7K3M9Q']],
    ['PP-7K3 M9Q', ['PP-7K3M9Q']],
    ['Message:\nPP-7K3M9Q\nDate:', ['PP-7K3M9Q']],
    ['no memo here', []],
    ['PP-7K3M9Q7', []],
    ['APP-7K3M9Q', []],
  ])('finds memos in %j', (text, expected) => {
    expect(findMemos(text)).toEqual(expected);
  });

  it.each([
    ['spaces on both sides of the dash', 'PP  -  7K3M9Q', ['PP-7K3M9Q']],
    ['a line break after PP', 'PP\n7k3m9q', ['PP-7K3M9Q']],
    ['no-break spaces inside the memo', 'PP-7K3\u00a0M9Q', ['PP-7K3M9Q']],
    ['two dashes', 'PP--7K3M9Q', []],
  ])('treats %s as before', (_case, text, expected) => {
    expect(findMemos(text)).toEqual(expected);
  });

  it.each([
    ['a non-breaking hyphen', 'PP\u20117K3M9Q'],
    ['an en dash', 'PP\u20137K3M9Q'],
    ['a minus sign', 'PP\u22127K3M9Q'],
    ['a word joiner inside', 'PP-7K3\u2060M9Q'],
    ['a soft hyphen and a zero-width space inside', 'PP-7\u00adK3\u200bM9Q'],
  ])('given a memo written with %s, then it reads as PP-7K3M9Q', (_case, text) => {
    expect(findMemos(text)).toEqual(['PP-7K3M9Q']);
  });

  it('takes time linear in the text on whitespace runs after "PP" (the old pattern was quadratic)', () => {
    // A regression guard, not a benchmark: CPU time on a shared machine, with wide slack. One MiB of
    // whitespace after "PP" takes milliseconds now; the old pattern needed about an hour (5 s per 40,000 spaces).
    const hostile = ['PP' + ' '.repeat(1 << 20), 'PP' + ' '.repeat(1 << 19) + '-' + ' '.repeat(1 << 19), 'PP '.repeat(1 << 18), `PP${' \u00a0\u202f\n'.repeat(1 << 18)}x`];
    for (const text of hostile) {
      const before = process.cpuUsage();
      findMemos(text);
      const used = process.cpuUsage(before);
      expect((used.user + used.system) / 1000).toBeLessThan(1_000);
    }
  });

  it('drops every character that shows nothing, however often it is called (no state kept between calls), and nothing else', () => {
    const invisible = '\u00ad\u180e\u200b\u200c\u200d\u2060\ufeff';
    for (let i = 0; i < 3; i++) expect(withoutInvisible(`P${invisible}P-7K3\u2060M9Q ${invisible}`)).toBe('PP-7K3M9Q ');
    expect(withoutInvisible('a\u200eb\u2011c d')).toBe('a\u200eb\u2011c d');
  });

  it('normalises one typed memo or refuses', () => {
    expect(normalizeMemo(' pp-7k3m9q ')).toBe('PP-7K3M9Q');
    expect(normalizeMemo('PP 7K3M9Q')).toBe('PP-7K3M9Q');
    expect(normalizeMemo('hello PP-7K3M9Q')).toBeNull();
    expect(normalizeMemo('PP-7K3M9')).toBeNull();
  });
});
