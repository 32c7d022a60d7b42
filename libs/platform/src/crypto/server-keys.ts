import { createHmac, createSecretKey, hkdfSync, KeyObject } from 'node:crypto';

/** Domain separation for every key this project derives from a configured secret. */
const HKDF_SALT = 'pp/server-keys/v1';

/**
 * A 32-byte sub-key of a configured secret for one purpose (HKDF-SHA256, the
 * label as info), so keys for different jobs never coincide and learning one
 * reveals neither the secret nor the others.
 *
 * Keys are KeyObjects: a key kept for the process's life holds its bytes in
 * native memory, not in a Buffer on the JavaScript heap, and Node 24 takes
 * a KeyObject for an HMAC or a cipher in a quarter of the CPU it spends
 * checking a Buffer given as a key (1.95 against 8.96 µs per HMAC;
 * docs/PERFORMANCE.md).
 */
export function deriveKey(secret: string | Buffer | KeyObject, label: string): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, label, 32)));
}

/**
 * deriveKey for many labels under one secret, for hot paths (one sub-key per
 * request): the same bytes as deriveKey, with HKDF's extract step (which
 * depends only on the secret) done once, so each key costs one HMAC
 * (HKDF-Expand of a single 32-byte block, RFC 5869 §2.3).
 */
export class KeyDeriver {
  private readonly pseudoRandomKey: KeyObject;

  constructor(secret: string | Buffer | KeyObject) {
    const bytes = secret instanceof KeyObject ? secret.export() : secret;
    this.pseudoRandomKey = createSecretKey(createHmac('sha256', HKDF_SALT).update(bytes).digest());
  }

  derive(label: string): KeyObject {
    return createSecretKey(createHmac('sha256', this.pseudoRandomKey).update(label, 'utf8').update(BLOCK_ONE).digest());
  }
}

const BLOCK_ONE = Buffer.from([1]);

/**
 * Keyed digest (HMAC-SHA256, hex) of one or more values, for names built from
 * credentials: without the key a name cannot be checked against a guessed
 * credential. Each part is length-prefixed, so ("a:b", "c") and ("a", "b:c")
 * never collide.
 */
export function keyedDigest(key: KeyObject, ...parts: string[]): string {
  const mac = createHmac('sha256', key);
  for (const part of parts) {
    const bytes = Buffer.from(part, 'utf8');
    mac.update(`${bytes.length}:`).update(bytes);
  }
  return mac.digest('hex');
}
