import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Nonces read from the CSPRNG at once: a call to randomBytes costs about 5 µs of CPU whatever its size (Node 24). */
const NONCES_PER_READ = 256;

let nonces = Buffer.alloc(0);
let nextNonceAt = 0;

/**
 * A fresh 96-bit nonce, sliced from one CSPRNG read shared by the next
 * NONCES_PER_READ seals: the same random bytes as one randomBytes call
 * each, at a tenth of the CPU (the gateway seals an idempotency record per
 * POST; docs/PERFORMANCE.md). Each slice is handed out once, and a used-up
 * read is replaced, never refilled, so a nonce already given never changes.
 */
function freshNonce(): Buffer {
  if (nextNonceAt + IV_BYTES > nonces.length) {
    nonces = randomBytes(IV_BYTES * NONCES_PER_READ);
    nextNonceAt = 0;
  }
  const nonce = nonces.subarray(nextNonceAt, nextNonceAt + IV_BYTES);
  nextNonceAt += IV_BYTES;
  return nonce;
}

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
  const iv = freshNonce();
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
