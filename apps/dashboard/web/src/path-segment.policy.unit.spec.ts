import { describe, expect, it } from '@jest/globals';
import { decodeSegment } from './path-segment.policy';

describe('a detail page’s id in its path', () => {
  it('is decoded', () => {
    expect(decodeSegment('txn_abc123')).toBe('txn_abc123');
    expect(decodeSegment('cs%20%C3%A9')).toBe('cs é');
  });

  it.each(['%E0%A4%A', '%', 'txn_%zz', '%C3'])('given the malformed %s, then is none (not found), without throwing', (segment) => {
    expect(decodeSegment(segment)).toBeUndefined();
  });
});
