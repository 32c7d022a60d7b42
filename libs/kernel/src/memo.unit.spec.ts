import { findMemos, generateMemo, MEMO_PATTERN, normalizeMemo } from './memo';

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

  it('normalises one typed memo or refuses', () => {
    expect(normalizeMemo(' pp-7k3m9q ')).toBe('PP-7K3M9Q');
    expect(normalizeMemo('PP 7K3M9Q')).toBe('PP-7K3M9Q');
    expect(normalizeMemo('hello PP-7K3M9Q')).toBeNull();
    expect(normalizeMemo('PP-7K3M9')).toBeNull();
  });
});
