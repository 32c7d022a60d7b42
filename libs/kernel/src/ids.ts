import { randomBytes } from 'node:crypto';
import { createCuid2 as createId } from './cuid2';

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

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * An unguessable token of `bytes` random bytes, base62-encoded. Used for API
 * keys, client secrets and webhook secrets.
 */
export function randomToken(bytes = 24): string {
  const raw = randomBytes(bytes);
  let value = BigInt(`0x${raw.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  const width = Math.ceil((bytes * 8) / Math.log2(62));
  return out.padStart(width, '0');
}
