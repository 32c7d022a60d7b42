import type { ApiKeyType } from './api-keys.commands';

/** What a key is by its prefix: its type and its mode. */
export interface ApiKeyKind {
  type: ApiKeyType;
  livemode: boolean;
}

/**
 * API key prefixes (PRODUCT-RULES §5), longest first: "pp_live_test_" must be
 * tried before "pp_live_" and "pp_pub_test_" before "pp_pub_", or test keys
 * would read as live. Restricted keys are live only: there is no test prefix.
 */
const API_KEY_PREFIXES: ReadonlyArray<readonly [prefix: string, kind: Readonly<ApiKeyKind>]> = [
  ['pp_live_test_', { type: 'secret', livemode: false }],
  ['pp_live_', { type: 'secret', livemode: true }],
  ['pp_pub_test_', { type: 'publishable', livemode: false }],
  ['pp_pub_', { type: 'publishable', livemode: true }],
  ['pp_rk_', { type: 'restricted', livemode: true }],
];

/**
 * The characters after the prefix: the gateway mints 24 random bytes (192
 * bits) written in base62 and left-padded to 33 digits, so every key of a
 * kind is its prefix and exactly 33 of [0-9A-Za-z].
 */
export const API_KEY_BODY_LENGTH = 33;

const API_KEY_BODY = new RegExp(`^[0-9A-Za-z]{${API_KEY_BODY_LENGTH}}$`);

/** The prefix of keys of `kind`; undefined for a kind no key has (restricted keys in test mode). */
export function apiKeyPrefix(kind: ApiKeyKind): string | undefined {
  return API_KEY_PREFIXES.find(([, k]) => k.type === kind.type && k.livemode === kind.livemode)?.[0];
}

/**
 * The kind a key has exactly the shape of (its prefix, then 33 base62
 * characters); undefined for anything else. Shape only: whether such a key
 * was ever issued, or still authenticates, is the gateway's to look up.
 */
export function apiKeyKindOf(key: string): ApiKeyKind | undefined {
  for (const [prefix, kind] of API_KEY_PREFIXES) {
    if (key.startsWith(prefix)) return API_KEY_BODY.test(key.slice(prefix.length)) ? { ...kind } : undefined;
  }
  return undefined;
}

/** Whether `key` has exactly the shape of a publishable key, live or test. */
export const isPublishableKeyShaped = (key: string): boolean => apiKeyKindOf(key)?.type === 'publishable';
