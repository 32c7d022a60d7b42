import fc from 'fast-check';
import { canonicalJson, requestFingerprint } from './fingerprint';

const ROUTE = 'POST /v1/checkout/sessions';
const bodyFingerprint = (body: unknown) => requestFingerprint(ROUTE, body);

describe('request fingerprint', () => {
  it('ignores key order at every level and nothing else', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}');
    expect(bodyFingerprint({ a: 1, b: 2 })).toBe(bodyFingerprint({ b: 2, a: 1 }));
    expect(bodyFingerprint({ a: 1 })).not.toBe(bodyFingerprint({ a: '1' }));
    expect(bodyFingerprint({ a: [1, 2] })).not.toBe(bodyFingerprint({ a: [2, 1] }));
  });

  it('given one body sent to two paths: two fingerprints', () => {
    expect(requestFingerprint('POST /v1/refunds/rf_a/cancel', {})).not.toBe(requestFingerprint('POST /v1/refunds/rf_b/cancel', {}));
    expect(requestFingerprint('POST /v1/refunds/rf_a/cancel', {})).toBe(requestFingerprint('POST /v1/refunds/rf_a/cancel', undefined));
  });

  it('is a sha256 hex, stable across a JSON round trip of the body', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const fingerprint = bodyFingerprint(value);
        expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
        expect(bodyFingerprint(JSON.parse(JSON.stringify(value)))).toBe(fingerprint);
      }),
    );
  });
});
