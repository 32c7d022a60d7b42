import { storableJson, storableText } from './storable-text';

describe('storable text', () => {
  it('given NUL and half a surrogate pair, then NUL is dropped and the half replaced; whole pairs stay', () => {
    expect(storableText('a\u0000b \ud83d x \u{1F600}')).toBe('ab \ufffd x \u{1F600}');
  });

  it('given a value with such strings at any depth, then its JSON holds none', () => {
    expect(JSON.parse(storableJson({ a: ['x\u0000y', { b: '\udc00' }], n: 1 }))).toEqual({ a: ['xy', { b: '\ufffd' }], n: 1 });
  });
});
