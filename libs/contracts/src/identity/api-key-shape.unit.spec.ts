import { randomToken } from '@pp/kernel';
import { API_KEY_BODY_LENGTH, type ApiKeyKind, apiKeyKindOf, apiKeyPrefix, isPublishableKeyShaped } from './api-key-shape';

/** Whether `key` has exactly the shape of keys of `kind` (a test key has not the shape of a live one, nor the reverse). */
const hasApiKeyShape = (key: string, kind: ApiKeyKind): boolean => {
  const found = apiKeyKindOf(key);
  return found !== undefined && found.type === kind.type && found.livemode === kind.livemode;
};

/** Every kind of key there is, with the prefix PRODUCT-RULES §5 gives it. */
const KINDS: Array<[prefix: string, kind: ApiKeyKind]> = [
  ['pp_live_', { type: 'secret', livemode: true }],
  ['pp_live_test_', { type: 'secret', livemode: false }],
  ['pp_rk_', { type: 'restricted', livemode: true }],
  ['pp_pub_', { type: 'publishable', livemode: true }],
  ['pp_pub_test_', { type: 'publishable', livemode: false }],
];

/** A key minted as the gateway mints them (apps/gateway identity/api-key.ts): the prefix, then 24 random bytes in base62. */
const mint = (prefix: string): string => prefix + randomToken(24);

const describeKind = (kind: ApiKeyKind) => `${kind.livemode ? 'live' : 'test'} ${kind.type}`;

describe('API key shape', () => {
  it.each(KINDS)('gives %s as the prefix of %j keys', (prefix, kind) => {
    expect(apiKeyPrefix(kind)).toBe(prefix);
  });

  it('has no prefix, and so no shape, for test restricted keys (restricted keys are live only)', () => {
    expect(apiKeyPrefix({ type: 'restricted', livemode: false })).toBeUndefined();
    expect(apiKeyKindOf(`pp_rk_test_${'a'.repeat(API_KEY_BODY_LENGTH)}`)).toBeUndefined();
  });

  describe.each(KINDS)('%s keys', (prefix, kind) => {
    it(`accepts freshly minted ones as ${describeKind(kind)} keys, and as no other kind`, () => {
      for (let i = 0; i < 200; i++) {
        const key = mint(prefix);
        expect(key).toHaveLength(prefix.length + API_KEY_BODY_LENGTH);
        expect(apiKeyKindOf(key)).toEqual(kind);
        for (const [, other] of KINDS) expect(hasApiKeyShape(key, other)).toBe(other === kind);
        expect(isPublishableKeyShaped(key)).toBe(kind.type === 'publishable');
      }
    });

    it('accepts the smallest and largest bodies (all zeros, all z)', () => {
      expect(hasApiKeyShape(prefix + '0'.repeat(API_KEY_BODY_LENGTH), kind)).toBe(true);
      expect(hasApiKeyShape(prefix + 'z'.repeat(API_KEY_BODY_LENGTH), kind)).toBe(true);
    });

    const body = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q';
    it.each([
      ['one character short', `${prefix}${body.slice(1)}`],
      ['one character long', `${prefix}${body}x`],
      ['the prefix alone', prefix],
      ['the prefix in capitals', `${prefix.toUpperCase()}${body}`],
      ['the prefix without its trailing underscore', `${prefix.slice(0, -1)}${body}`],
      ['another prefix', `pp_sk_${body}`],
      ['no pp_ prefix', `${prefix.slice(3)}${body}`],
      ['a leading space', ` ${prefix}${body}`],
      ['a trailing line break', `${prefix}${body}\n`],
      ...['-', '_', '+', '/', '=', '.', ' ', '\n', '\u0000', 'é', '€', '٣'].map((char): [string, string] => [
        `a non-base62 ${JSON.stringify(char)} in its body`,
        `${prefix}${body.slice(0, 10)}${char}${body.slice(11)}`,
      ]),
    ])('refuses %s', (_case, key) => {
      expect(apiKeyKindOf(key)).toBeUndefined();
      expect(hasApiKeyShape(key, kind)).toBe(false);
      expect(isPublishableKeyShaped(key)).toBe(false);
    });
  });

  it.each([
    ['pp_live_test_', 'pp_live_'],
    ['pp_live_', 'pp_live_test_'],
    ['pp_pub_test_', 'pp_pub_'],
    ['pp_pub_', 'pp_pub_test_'],
  ])('refuses the body of a %s key behind the other mode’s prefix as that kind (%s)', (prefix, otherMode) => {
    const kind = KINDS.find(([p]) => p === prefix)![1];
    const key = otherMode + mint(prefix).slice(prefix.length);
    expect(hasApiKeyShape(key, kind)).toBe(false);
    expect(apiKeyKindOf(key)).toEqual({ ...kind, livemode: !kind.livemode });
  });

  it('reads test prefixes before their live prefixes, so a test key never reads as live nor as malformed', () => {
    expect(apiKeyKindOf(`pp_live_test_${'a'.repeat(API_KEY_BODY_LENGTH)}`)).toEqual({ type: 'secret', livemode: false });
    expect(apiKeyKindOf(`pp_pub_test_${'a'.repeat(API_KEY_BODY_LENGTH)}`)).toEqual({ type: 'publishable', livemode: false });
    // A live key whose body happens to begin with "test" is still a live key.
    expect(apiKeyKindOf(`pp_live_test${'a'.repeat(API_KEY_BODY_LENGTH - 4)}`)).toEqual({ type: 'secret', livemode: true });
    // A test prefix with a live key's length of body after "pp_live_" is neither.
    expect(apiKeyKindOf(`pp_live_test_${'a'.repeat(API_KEY_BODY_LENGTH - 5)}`)).toBeUndefined();
  });

  it('refuses a secret or restricted key as a publishable one, and the reverse', () => {
    expect(isPublishableKeyShaped(mint('pp_live_test_'))).toBe(false);
    expect(isPublishableKeyShaped(mint('pp_rk_'))).toBe(false);
    expect(hasApiKeyShape(mint('pp_pub_'), { type: 'secret', livemode: true })).toBe(false);
    expect(hasApiKeyShape(`pp_pub_live_${'a'.repeat(API_KEY_BODY_LENGTH)}`, { type: 'publishable', livemode: true })).toBe(false);
  });
});
