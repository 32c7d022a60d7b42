import { createHash, timingSafeEqual } from 'node:crypto';
import { type ApiKeyKind, apiKeyKindOf, apiKeyPrefix, type ApiKeyType } from '@pp/contracts';
import { randomToken } from '@pp/kernel';

export type KeyType = ApiKeyType;
export type KeyKind = ApiKeyKind;

/**
 * 24 random bytes = 192 bits after the prefix, base62 (33 characters): the
 * key shape is @pp/contracts' (identity/api-key-shape.ts), which the checkout
 * app checks publishable keys against too.
 */
const KEY_RANDOM_BYTES = 24;

export function prefixFor(kind: KeyKind): string {
  const prefix = apiKeyPrefix(kind);
  if (prefix === undefined) throw new Error(`no key prefix for ${kind.type} keys in ${kind.livemode ? 'live' : 'test'} mode`);
  return prefix;
}

/** A new key: its prefix, then 192 random bits. Shown once, stored only as its hash. */
export function generateApiKey(kind: KeyKind): string {
  return prefixFor(kind) + randomToken(KEY_RANDOM_BYTES);
}

/** The kind a well-formed key claims by its prefix; undefined for anything else (no database lookup needed). */
export function parseApiKey(key: string): KeyKind | undefined {
  return apiKeyKindOf(key);
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
