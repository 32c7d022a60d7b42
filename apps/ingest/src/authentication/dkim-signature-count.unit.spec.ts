import { countDkimSignatures } from './dkim-signature-count';

const count = (raw: string, stopAt = 100) => countDkimSignatures(Buffer.from(raw), stopAt);

describe('counting DKIM-Signature fields', () => {
  it('given fields in any case, with blanks before the colon, on CRLF or LF lines, then each is counted', () => {
    expect(count('DKIM-Signature: a\r\ndkim-signature : b\r\nDkIm-SiGnAtUrE\t: c\r\nFrom: x\r\n\r\nbody')).toBe(3);
    expect(count('From: x\nDKIM-Signature: a\n\tfolded; b=1\nDKIM-Signature: b\n\nbody')).toBe(2);
  });

  it('given a field named like one in the body, a folded line, or a longer name, then it is not counted', () => {
    expect(count('From: x\r\n\r\nDKIM-Signature: in the body\r\n')).toBe(0);
    expect(count('From: x\n\nDKIM-Signature: in the body\n')).toBe(0);
    expect(count('X-Note: a\r\n DKIM-Signature: folded into X-Note\r\nDKIM-Signatures: b\r\nDKIM-Signature-X: c\r\n\r\n')).toBe(0);
  });

  it('given more fields than the cap, then it stops counting at the cap', () => {
    expect(count('DKIM-Signature: a\n'.repeat(50) + '\nbody', 11)).toBe(11);
  });

  it('given a message with no empty line or no line feed at all, then the whole of it is the header section', () => {
    expect(count('DKIM-Signature: a\nDKIM-Signature: b')).toBe(2);
    expect(count('DKIM-Signature: a')).toBe(1);
    expect(count('')).toBe(0);
  });
});
