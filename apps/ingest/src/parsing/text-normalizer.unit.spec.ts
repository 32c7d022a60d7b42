import { clipText, normalizeText } from './text-normalizer';

describe('normalizeText', () => {
  it('given a sender name with a right-to-left override, then the override is gone and the letters stay in their order', () => {
    expect(normalizeText('Jo\u202e✓ detacitnehtuA')).toBe('Jo✓ detacitnehtuA');
  });

  it('given every bidi embedding, override and isolate, then none is left', () => {
    const controls = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    expect(normalizeText(controls.map((control) => `a${control}`).join('') + 'b')).toBe('aaaaaaaaab');
  });

  it('given Hebrew with its direction marks, then the text and the marks stay', () => {
    expect(normalizeText('שלום\u200f Jo\u200e')).toBe('שלום\u200f Jo\u200e');
  });

  it('given a word joiner, a Mongolian vowel separator and a soft hyphen, then none is left', () => {
    expect(normalizeText('PP-7K3\u2060M9Q a\u180eb c\u00add')).toBe('PP-7K3M9Q ab cd');
  });

  it('given zero-width characters, CRLF and special spaces, then they read as plain text', () => {
    expect(normalizeText('a\u200bb\r\nc\u00a0d\u202fe')).toBe('ab\nc d e');
  });
});

describe('clipText', () => {
  it('given text no longer than the limit, then it is kept whole', () => {
    expect(clipText('a\u{1f600}', 3)).toBe('a\u{1f600}');
  });

  it('given a cut inside a surrogate pair, then the whole pair is left out; elsewhere, the text is cut at the limit', () => {
    expect(clipText('ab\u{1f600}c', 3)).toBe('ab');
    expect(clipText('ab\u{1f600}c', 4)).toBe('ab\u{1f600}');
    expect(clipText('abcdef', 4)).toBe('abcd');
  });
});
