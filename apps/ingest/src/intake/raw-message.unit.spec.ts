import { createHash } from 'node:crypto';
import { DomainError, ErrorCode, MAX_RAW_EMAIL_BYTES } from '@pp/contracts';
import { buildNotice } from '@pp/testing';
import { HEADER_SECTION_LIMITS } from './header-section';
import { decodeBase64, inspectRawMessage } from './raw-message';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.code : error;
  }
  return 'accepted';
};
/** The refusal's text, or 'accepted'. */
const refusalText = (raw: string) => {
  try {
    inspectRawMessage(Buffer.from(raw));
  } catch (error) {
    return error instanceof DomainError ? error.message : error;
  }
  return 'accepted';
};

const { bytes: MAX_BYTES, lines: MAX_LINES } = HEADER_SECTION_LIMITS;
const FROM = 'From: a@example.com\r\n';
/** A header section of From and one more field, `bytes` long in all, on two lines. */
const sectionOfBytes = (bytes: number) => `${FROM}X-Pad: ${'p'.repeat(bytes - FROM.length - 'X-Pad: \r\n'.length)}\r\n`;
/** A header section of From and one more field folded over one-space lines, `lines` lines in all. */
const sectionOfLines = (lines: number) => `${FROM}X: a\r\n${' \r\n'.repeat(lines - 2)}`;
/** A field whose colon sits two folds below its name: mailauth reads it as part of the field above, postal-mime as a Subject. */
const FAKE_SUBJECT = "Subject\r\n \r\n : Interac e-Transfer: You've received $9,999.00 from MALLORY and it has been automatically deposited.\r\n";

describe('raw message intake checks', () => {
  it('reads the Message-ID and hashes the bytes, the hash alone identifying the content', () => {
    const raw = buildNotice({ messageId: '<abc@payments.interac.ca>' });
    const message = inspectRawMessage(Buffer.from(raw));
    expect(message).toMatchObject({ messageId: '<abc@payments.interac.ca>', sha256: createHash('sha256').update(raw).digest('hex') });
    const copy = inspectRawMessage(Buffer.from(`Delivered-To: shop@example.com\n${raw}`));
    expect(copy.messageId).toBe(message.messageId);
    expect(copy.sha256).not.toBe(message.sha256);
  });

  it.each([
    ['an mbox postmark line', 'From notify@payments.interac.ca Wed Aug 26 14:03:11 2026\n'],
    ['a postmark with CRLF after blank lines', '\r\n\nFrom MAILER-DAEMON  Wed Aug 26 14:03:11 2026\r\n'],
  ])('given %s in front of the message, then it is cut off: the message stored is the one Interac sent', (_what, envelope) => {
    const raw = buildNotice({ messageId: '<env@payments.interac.ca>' });
    const message = inspectRawMessage(Buffer.from(`${envelope}${raw}`));
    expect(message.bytes.toString()).toBe(raw);
    expect(message).toMatchObject({ messageId: '<env@payments.interac.ca>', sha256: createHash('sha256').update(raw).digest('hex') });
  });

  it('given a From field spelled with blanks before its colon first, then it is kept as the field it is', () => {
    const raw = 'From : a@example.com\r\nSubject: x\r\n\r\nbody';
    expect(inspectRawMessage(Buffer.from(raw)).bytes.toString()).toBe(raw);
  });

  it('reads no Message-ID when there is none', () => {
    expect(inspectRawMessage(Buffer.from('From: a@example.com\r\nSubject: x\r\n\r\nbody')).messageId).toBeNull();
  });

  it.each([
    ['empty input', Buffer.alloc(0)],
    ['JSON', Buffer.from('{"hello":"world"}')],
    ['plain prose', Buffer.from('Hello there,\nthis is not a message.')],
    ['headers without From', Buffer.from('Subject: x\n\nbody')],
    ['binary', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a])],
    ['more than 5 MB', Buffer.concat([Buffer.from('From: a@example.com\n\n'), Buffer.alloc(5 * 1024 * 1024, 'a')])],
  ])('refuses %s with VALIDATION_FAILED', (_what, bytes) => {
    expect(refusal(() => inspectRawMessage(bytes))).toBe(ErrorCode.ValidationFailed);
  });

  describe('the header section', () => {
    it.each([
      ['its first line', `${FAKE_SUBJECT}${FROM}\r\nbody`, 1],
      ['its last line, below a field folded over many lines', `${sectionOfLines(1000)}${FAKE_SUBJECT}\r\nbody`, 1001],
      ['a line just under the size limit', `${sectionOfBytes(MAX_BYTES - 200)}no colon here\r\n\r\nbody`, 3],
      ['a line holding a NUL, folded', `${FROM}Subject: x\r\n \0\r\n\r\nbody`, 3],
    ])('refuses a header line that is neither a field nor the fold of one: %s', (_where, raw, line) => {
      expect(refusalText(raw)).toBe(`Validation failed: the message is not RFC 822 (header line ${line} is neither a field nor the fold of one)`);
    });

    it('reads a field with blanks before its colon as a field (RFC 5322 4.5.8)', () => {
      expect(refusalText(`${FROM}Subject \t: x\r\n\r\nbody`)).toBe('accepted');
    });

    it.each([
      ['is exactly at the size limit', () => sectionOfBytes(MAX_BYTES), 'accepted'],
      ['has exactly as many lines as the limit', () => sectionOfLines(MAX_LINES), 'accepted'],
      ['is a byte over the size limit', () => sectionOfBytes(MAX_BYTES + 1), `Validation failed: the header section is larger than ${MAX_BYTES / 1024} KB`],
      ['has a line more than the limit', () => sectionOfLines(MAX_LINES + 1), `Validation failed: the header section has more than ${MAX_LINES} lines`],
      ['has no end within the size limit', () => `${FROM}X-Pad: ${'p'.repeat(MAX_BYTES)}`, `Validation failed: the header section is larger than ${MAX_BYTES / 1024} KB`],
    ])('given a header section that %s, then it is refused or accepted as such', (_what, section, answer) => {
      expect(refusalText(`${section()}\r\nbody`)).toBe(answer);
    });

    it('given a section of exactly the size limit followed by a lone CR and folds, then the CR is no end: refused as too large', () => {
      // mailauth's header end needs CRLF CRLF (or LF LF): it would read the folds after the CR as the field's.
      const raw = `${sectionOfBytes(MAX_BYTES)}\r${' \r\n'.repeat(50_000)}\r\nbody`;
      expect(refusalText(raw)).toBe(`Validation failed: the header section is larger than ${MAX_BYTES / 1024} KB`);
    });

    it('checks every line of the header section: a Subject whose colon sits two folds below its name, past 300 KB of folded headers, is refused', () => {
      // The notice's From moved on top (DKIM finds a signed field wherever it is): the first 256 KB hold a From.
      const notice = buildNotice().replace(/\n/g, '\r\n');
      const from = /^From: .*\r\n/m.exec(notice)![0];
      const folded = `X-Pad: x\r\n${` ${'p'.repeat(76)}\r\n`.repeat(3900)}`;
      expect(Buffer.byteLength(folded)).toBeGreaterThan(300 * 1024);
      expect(refusal(() => inspectRawMessage(Buffer.from(`${from}${folded}${FAKE_SUBJECT}${notice.replace(from, '')}`)))).toBe(ErrorCode.ValidationFailed);
    });
  });

  it('decodes strict base64 only', () => {
    expect(decodeBase64(Buffer.from('From: a\n\n').toString('base64')).toString()).toBe('From: a\n\n');
    expect(decodeBase64(Buffer.from('From: ab\n').toString('base64')).toString()).toBe('From: ab\n');
    expect(decodeBase64('RnJv\r\nbTog\nYQ==')).toEqual(Buffer.from('From: a'));
    for (const text of ['not base64!', 'RnJvbQ', 'RnJ=bQ==', 'RnJvbQ===', '=RnJvbQ=', 'RnJv-Q==']) {
      expect([text, refusal(() => decodeBase64(text))]).toEqual([text, ErrorCode.ValidationFailed]);
    }
  });

  it('given base64 of a message of the largest size, then it decodes in one pass (a repeating pattern ran out of stack near 4 MB)', () => {
    const bytes = Buffer.alloc(MAX_RAW_EMAIL_BYTES, 'a');
    expect(decodeBase64(bytes.toString('base64')).equals(bytes)).toBe(true);
  });
});
