import { createSecretKey, type KeyObject } from 'node:crypto';
import { open, seal, SealError } from './sealed-box';

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const FORMAT = 'v1';

export interface RingKey {
  id: string;
  key: KeyObject;
}

/**
 * Encryption keys from configuration, as `<key id>:<base64 of 32 bytes>`
 * separated by commas: the first seals, every one opens. A sealed value
 * names its key (`v1:<key id>:<box>`), so the key can be rotated: put a new
 * key first, re-seal what the old one sealed, then drop the old one.
 */
/** Fewer distinct bytes than this in 32 random ones happens about once in 10^20 draws. */
const MIN_DISTINCT_BYTES = 12;

export class KeyRing {
  private constructor(private readonly keys: readonly RingKey[]) {}

  /** Parses the configured list; answers what is wrong with it instead when it is malformed. */
  static parse(text: string): KeyRing | string {
    const keys: RingKey[] = [];
    for (const entry of text.split(',').map((part) => part.trim())) {
      const colon = entry.indexOf(':');
      const id = colon > 0 ? entry.slice(0, colon) : '';
      if (!KEY_ID.test(id)) return `each entry must be <key id>:<base64 of 32 bytes> with a key id of 1-32 letters, digits, _ or -`;
      const material = entry.slice(colon + 1);
      const key = Buffer.from(material, 'base64');
      if (key.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(material)) return `key ${id} must be 32 bytes in base64 (e.g. openssl rand -base64 32)`;
      // 32 random bytes have about 30 distinct values; a key of zeros or of one repeated byte was typed, not generated.
      if (new Set(key).size < MIN_DISTINCT_BYTES) return `key ${id} is not random (too few distinct bytes; e.g. openssl rand -base64 32)`;
      if (keys.some((known) => known.id === id)) return `key id ${id} appears twice`;
      keys.push({ id, key: createSecretKey(key) });
    }
    return new KeyRing(keys);
  }

  get currentId(): string {
    return this.keys[0]!.id;
  }

  get ids(): string[] {
    return this.keys.map((k) => k.id);
  }

  has(id: string): boolean {
    return this.keys.some((k) => k.id === id);
  }

  /** Seals under the first key; `context` must be given again to open. */
  seal(plaintext: string, context: string): string {
    const { id, key } = this.keys[0]!;
    return `${FORMAT}:${id}:${seal(key, plaintext, context)}`;
  }

  open(sealed: string, context: string): string {
    const id = KeyRing.keyIdOf(sealed);
    const found = id === undefined ? undefined : this.keys.find((k) => k.id === id);
    if (!found) throw new SealError(id === undefined ? 'not a sealed value' : `sealed under key ${id}, which is not configured`);
    return open(found.key, sealed.slice(FORMAT.length + id!.length + 2), context).toString('utf8');
  }

  /** The key id a sealed value names, or undefined when it is not a sealed value at all. */
  static keyIdOf(value: string): string | undefined {
    const match = /^v1:([A-Za-z0-9_-]{1,32}):/.exec(value);
    return match?.[1];
  }
}
