import { storableJson, storableText } from './storable-text';

describe('storable text', () => {
  it('given NUL and half a surrogate pair, then NUL is dropped and the half replaced; whole pairs stay', () => {
    expect(storableText('a\u0000b \ud83d x \u{1F600}')).toBe('ab \ufffd x \u{1F600}');
  });

  it('given a value with such strings at any depth, then its JSON holds none', () => {
    expect(JSON.parse(storableJson({ a: ['x\u0000y', { b: '\udc00' }], n: 1 }))).toEqual({ a: ['xy', { b: '\ufffd' }], n: 1 });
  });

  it('given keys with NUL or half a surrogate pair, at any depth, then the JSON holds neither and keeps every value', () => {
    const json = storableJson({ 'a\u0000b': 1, 'k\ud800': 2, nested: [{ '\udc00x': 'v' }] });
    expect(json).not.toMatch(/\\u0000|\\ud[89a-f]/i); // JSON.stringify writes both as \u escapes, which jsonb refuses
    expect(JSON.parse(json)).toEqual({ ab: 1, 'k\ufffd': 2, nested: [{ '\ufffdx': 'v' }] });
  });
});
