import { createHmac, hkdfSync } from 'node:crypto';

/** Domain separation for every key this project derives from a configured secret. */
const HKDF_SALT = 'pp/server-keys/v1';

/**
 * A 32-byte sub-key of a configured secret for one purpose (HKDF-SHA256, the
 * label as info), so keys for different jobs never coincide and learning one
 * reveals neither the secret nor the others.
 */
export function deriveKey(secret: string | Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, label, 32));
}

/**
 * Keyed digest (HMAC-SHA256, hex) of one or more values, for names built from
 * credentials: without the key a name cannot be checked against a guessed
 * credential. Each part is length-prefixed, so ("a:b", "c") and ("a", "b:c")
 * never collide.
 */
export function keyedDigest(key: Buffer, ...parts: string[]): string {
  const mac = createHmac('sha256', key);
  for (const part of parts) {
    const bytes = Buffer.from(part, 'utf8');
    mac.update(`${bytes.length}:`).update(bytes);
  }
  return mac.digest('hex');
}
