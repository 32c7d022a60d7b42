import { createCipheriv, createDecipheriv, type KeyObject } from 'node:crypto';
import { freshRandomBytes } from '@pp/kernel';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value did not open: wrong key, wrong context, or altered bytes. */
export class SealError extends Error {
  constructor(message = 'sealed value could not be opened (wrong key or context, or altered)') {
    super(message);
    this.name = 'SealError';
  }
}

/**
 * AES-256-GCM under `key` (a 32-byte secret KeyObject) with a fresh random nonce; `context` is
 * authenticated but not stored, so a value only opens where it was sealed
 * (same endpoint, same cache entry). Result: base64url of nonce | ciphertext | tag.
 */
export function seal(key: KeyObject, plaintext: string | Buffer, context: string): string {
  const iv = freshRandomBytes(IV_BYTES); // sliced from a shared CSPRNG read: a seal per POST in the gateway
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** Opens what `seal` produced with the same key and context; throws SealError otherwise. */
export function open(key: KeyObject, sealed: string, context: string): Buffer {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new SealError('sealed value is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SealError();
  }
}
