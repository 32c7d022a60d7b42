import { freshRandomBytes } from './random-bytes';

describe('fresh random bytes', () => {
  it('given many small takes across several reads, when taken, then no two are the same', () => {
    const taken = Array.from({ length: 2_000 }, () => freshRandomBytes(16).toString('hex'));
    expect(new Set(taken).size).toBe(2_000);
    expect(taken.every((hex) => hex.length === 32)).toBe(true);
  });

  it('given bytes handed out, when more are taken, then the bytes handed out do not change', () => {
    const first = freshRandomBytes(24);
    const copy = Buffer.from(first);
    for (let i = 0; i < 500; i++) freshRandomBytes(24); // past the end of the read it came from
    expect(first.equals(copy)).toBe(true);
  });

  it('given a take larger than a read shares, when taken, then it has its own bytes of the asked size', () => {
    const big = freshRandomBytes(10_000);
    expect(big).toHaveLength(10_000);
    expect(new Set(big).size).toBeGreaterThan(200); // 10,000 CSPRNG bytes cover nearly every byte value
  });
});
