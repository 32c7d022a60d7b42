import { randomBytes } from 'node:crypto';

/**
 * Bytes read from the CSPRNG at once. A read costs 3-5 µs of CPU whatever
 * its size up to a few KB (docs/PERFORMANCE.md, "Random tokens"), and the
 * hot paths take 12-32 bytes at a time (a seal's nonce, a client secret).
 */
const READ_BYTES = 4096;

let read = Buffer.alloc(0);
let nextAt = 0;

/**
 * `size` fresh bytes from the CSPRNG: the same randomness as a randomBytes
 * call of their own, sliced from one read shared by the next calls. Each
 * slice is handed out once, as a copy, and wiped from the read, so the
 * process keeps none of the bytes it gave out (they may become a secret). A
 * used-up read is replaced, never refilled.
 */
export function freshRandomBytes(size: number): Buffer {
  if (size > READ_BYTES / 8) return randomBytes(size);
  if (nextAt + size > read.length) {
    read = randomBytes(READ_BYTES);
    nextAt = 0;
  }
  const bytes = Buffer.from(read.subarray(nextAt, nextAt + size));
  read.fill(0, nextAt, nextAt + size);
  nextAt += size;
  return bytes;
}
