import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '@pp/kernel';

export type KeyType = 'secret' | 'restricted' | 'publishable';

export interface KeyKind {
  type: KeyType;
  livemode: boolean;
}

/**
 * Key prefixes (PRODUCT-RULES §5), longest first: "pp_live_test_" must be tried before
 * "pp_live_" and "pp_pub_test_" before "pp_pub_", or test keys would parse as live.
 */
const PREFIXES: ReadonlyArray<readonly [prefix: string, kind: KeyKind]> = [
  ['pp_live_test_', { type: 'secret', livemode: false }],
  ['pp_live_', { type: 'secret', livemode: true }],
  ['pp_pub_test_', { type: 'publishable', livemode: false }],
  ['pp_pub_', { type: 'publishable', livemode: true }],
  ['pp_rk_', { type: 'restricted', livemode: true }],
];

/** 24 random bytes = 192 bits after the prefix, base62 (33 characters). */
const KEY_RANDOM_BYTES = 24;
const KEY_BODY = /^[0-9A-Za-z]{33}$/;

export function prefixFor(kind: KeyKind): string {
  const found = PREFIXES.find(([, k]) => k.type === kind.type && k.livemode === kind.livemode);
  if (!found) throw new Error(`no key prefix for ${kind.type} keys in ${kind.livemode ? 'live' : 'test'} mode`);
  return found[0];
}

/** A new key: its prefix, then 192 random bits. Shown once, stored only as its hash. */
export function generateApiKey(kind: KeyKind): string {
  return prefixFor(kind) + randomToken(KEY_RANDOM_BYTES);
}

/** The kind a well-formed key claims by its prefix; undefined for anything else (no database lookup needed). */
export function parseApiKey(key: string): KeyKind | undefined {
  for (const [prefix, kind] of PREFIXES) {
    if (key.startsWith(prefix)) return KEY_BODY.test(key.slice(prefix.length)) ? kind : undefined;
  }
  return undefined;
}

/**
 * SHA-256 of the whole key. A fast hash is enough here: keys carry 192 random
 * bits, so nobody can search the key space from a leaked hash (a slow hash such
 * as scrypt guards low-entropy passwords, and would cost every API call
 * milliseconds). Being deterministic, the hash is also the lookup index.
 */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What a listing may show of a key: its prefix and last four characters. */
export function redactKey(key: string): string {
  const kind = parseApiKey(key);
  const prefix = kind ? prefixFor(kind) : '';
  return `${prefix}…${key.slice(-4)}`;
}
