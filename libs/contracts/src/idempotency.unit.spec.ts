import fc from 'fast-check';
import { bodyFingerprint, canonicalJson } from './idempotency';

describe('body fingerprint', () => {
  it('ignores key order at every level and nothing else', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}');
    expect(bodyFingerprint({ a: 1, b: 2 })).toBe(bodyFingerprint({ b: 2, a: 1 }));
    expect(bodyFingerprint({ a: 1 })).not.toBe(bodyFingerprint({ a: '1' }));
    expect(bodyFingerprint({ a: [1, 2] })).not.toBe(bodyFingerprint({ a: [2, 1] }));
  });

  it('is the sha256 hex of canonical JSON, stable across a JSON round trip', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const fingerprint = bodyFingerprint(value);
        expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
        expect(bodyFingerprint(JSON.parse(JSON.stringify(value)))).toBe(fingerprint);
      }),
    );
  });
});
