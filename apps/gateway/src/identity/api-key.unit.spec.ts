import { generateApiKey, hashApiKey, parseApiKey, redactKey, type KeyKind } from './api-key';

const KINDS: Array<[string, KeyKind]> = [
  ['pp_live_', { type: 'secret', livemode: true }],
  ['pp_live_test_', { type: 'secret', livemode: false }],
  ['pp_pub_', { type: 'publishable', livemode: true }],
  ['pp_pub_test_', { type: 'publishable', livemode: false }],
  ['pp_rk_', { type: 'restricted', livemode: true }],
];

describe('API keys', () => {
  it.each(KINDS)('generates %s keys that parse back to their kind', (prefix, kind) => {
    const key = generateApiKey(kind);
    expect(key.slice(0, prefix.length)).toBe(prefix);
    expect(parseApiKey(key)).toEqual(kind);
  });

  it('reads test prefixes before their live prefixes', () => {
    expect(parseApiKey(`pp_live_test_${'a'.repeat(33)}`)).toEqual({ type: 'secret', livemode: false });
    expect(parseApiKey(`pp_pub_test_${'a'.repeat(33)}`)).toEqual({ type: 'publishable', livemode: false });
  });

  it('carries at least 128 random bits after the prefix', () => {
    const bodies = new Set(Array.from({ length: 200 }, () => generateApiKey({ type: 'secret', livemode: true }).slice('pp_live_'.length)));
    expect(bodies.size).toBe(200);
    for (const body of bodies) expect(body.length * Math.log2(62)).toBeGreaterThanOrEqual(128);
  });

  it.each(['', 'pp_live_', 'pp_live_short', `pp_xx_${'a'.repeat(33)}`, `pp_live_${'a'.repeat(32)}!`, `pp_live_${'a'.repeat(34)}`, `PP_LIVE_${'a'.repeat(33)}`])(
    'refuses the malformed key %p without a lookup',
    (key) => expect(parseApiKey(key)).toBeUndefined(),
  );

  it('hashes deterministically and redacts to prefix and last four', () => {
    const key = generateApiKey({ type: 'restricted', livemode: true });
    expect(hashApiKey(key).equals(hashApiKey(key))).toBe(true);
    expect(hashApiKey(key)).toHaveLength(32);
    expect(redactKey(key)).toBe(`pp_rk_…${key.slice(-4)}`);
  });
});
