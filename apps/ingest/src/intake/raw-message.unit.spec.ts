import { createHash } from 'node:crypto';
import { DomainError, ErrorCode } from '@pp/contracts';
import { buildNotice } from '@pp/testing';
import { decodeBase64, inspectRawMessage } from './raw-message';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.code : error;
  }
  return 'accepted';
};

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

  it('decodes strict base64 only', () => {
    expect(decodeBase64(Buffer.from('From: a\n\n').toString('base64')).toString()).toBe('From: a\n\n');
    expect(refusal(() => decodeBase64('not base64!'))).toBe(ErrorCode.ValidationFailed);
  });
});
