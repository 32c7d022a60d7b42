import { randomBytes } from 'node:crypto';
import { toBase62 } from './base62';

/** The plain definition: BigInt division by 62, digit by digit. */
function byBigInt(bytes: Uint8Array, width: number): string {
  const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = DIGITS[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(width, '0');
}

const widthFor = (size: number) => Math.ceil((size * 8) / Math.log2(62));

describe('base62', () => {
  it.each([
    ['zero', Buffer.alloc(24)],
    ['one', Buffer.from([...Array(23).fill(0), 1])],
    ['sixty-two', Buffer.from([...Array(23).fill(0), 62])],
    ['the largest 24-byte number', Buffer.alloc(24, 0xff)],
    ['a single byte', Buffer.from([0xab])],
    ['two bytes (a short first limb)', Buffer.from([0x01, 0x00])],
    ['leading zero bytes', Buffer.from([0, 0, 0, 0, 0x7f, 0xee, 0x01])],
  ])('given %s, when encoded, then the digits are those of BigInt division', (_case, bytes) => {
    expect(toBase62(bytes, widthFor(bytes.length))).toBe(byBigInt(bytes, widthFor(bytes.length)));
  });

  it('given 20,000 random numbers of 1 to 40 bytes, when encoded, then every one has the digits of BigInt division', () => {
    const mismatches: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const bytes = randomBytes(1 + (i % 40));
      if (i % 5 === 0) bytes.fill(0, 0, Math.min(bytes.length, i % 7));
      const width = widthFor(bytes.length);
      if (toBase62(bytes, width) !== byBigInt(bytes, width)) mismatches.push(bytes.toString('hex'));
    }
    expect(mismatches).toEqual([]);
  });

  it('given the largest number of a size, when encoded, then it fills the width exactly', () => {
    expect(toBase62(Buffer.alloc(24, 0xff), 33)).toHaveLength(33);
    expect(toBase62(Buffer.alloc(24, 0xff), 33)[0]).not.toBe('0');
  });
});
