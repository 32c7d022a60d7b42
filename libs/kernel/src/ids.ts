import { toBase62 } from './base62';
import { createCuid2 as createId } from './cuid2';
import { freshRandomBytes } from './random-bytes';

/** Prefixes of service-issued identifiers (PRODUCT-RULES §D3). */
export const ID_PREFIX = {
  event: 'evt_',
  webhookEndpoint: 'wh_',
  refund: 'rf_',
  transaction: 'txn_',
  email: 'em_',
  merchant: 'mer_',
  user: 'usr_',
  key: 'key_',
  auditEntry: 'aud_',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

/** Checkout sessions use bare CUID2s (PRODUCT-RULES §2.1). */
export const newSessionId = (): string => createId();

export const newId = (kind: IdKind): string => `${ID_PREFIX[kind]}${createId()}`;

/**
 * An unguessable token of `bytes` random bytes, base62-encoded. Used for API
 * keys, client secrets and webhook secrets.
 */
export function randomToken(bytes = 24): string {
  const raw = freshRandomBytes(bytes);
  const token = toBase62(raw, Math.ceil((bytes * 8) / Math.log2(62)));
  raw.fill(0);
  return token;
}
