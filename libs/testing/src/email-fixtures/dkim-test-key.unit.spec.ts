import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import { buildNotice } from './interac-notice.builder';
import { dnsOverridesFor, signEmail, testDkimKey } from './dkim-test-key';

const key = testDkimKey();
const signTime = new Date('2026-11-27T12:00:00.000Z');
const resolver = async (name: string) => {
  const record = dnsOverridesFor(key)[name];
  if (!record) throw Object.assign(new Error(`no TXT record for ${name}`), { code: 'ENOTFOUND' });
  return [[record]];
};

/** What mailauth signs for the message as given, with signEmail's settings. */
async function librarySignature(raw: string, maxBodyLength?: number): Promise<string> {
  const result = await dkimSign(raw, {
    signTime,
    signatureData: [
      {
        signingDomain: key.domain,
        selector: key.selector,
        privateKey: key.privateKey,
        canonicalization: 'relaxed/relaxed',
        headerList: ['from', 'to', 'subject', 'date', 'message-id', 'reply-to', 'mime-version', 'content-type', 'content-transfer-encoding'],
        ...(maxBodyLength !== undefined ? { maxBodyLength } : {}),
      },
    ],
  } as Parameters<typeof dkimSign>[1]);
  return result.signatures!;
}

describe('signEmail', () => {
  const lf = buildNotice().replace(/\r\n/g, '\n');
  // Every row names its l= length: a row shorter than the test function would make Jest pass it a done callback.
  const messages: Array<[string, string, number | undefined]> = [
    ['bare line feeds', lf, undefined],
    ['CRLF line ends', lf.replace(/\n/g, '\r\n'), undefined],
    ['mixed line ends', lf.replace(/\n/, '\r\n'), undefined],
    ['a body of short lines under an l= tag', `${lf}${'x\n'.repeat(1000)}`, 200],
  ];

  it.each(messages)('given %s, signs what mailauth signs for it, in the message\'s own line ends', async (_, raw, maxBodyLength) => {
    const signed = await signEmail(raw, { signTime, maxBodyLength });
    const eol = raw.includes('\r\n') ? '\r\n' : '\n';
    expect(signed).toBe((await librarySignature(raw, maxBodyLength)).replace(/\r\n/g, eol) + raw);
  });

  it.each(messages)('given %s, gives a signature that verifies', async (_, raw, maxBodyLength) => {
    const result = await dkimVerify(await signEmail(raw, { maxBodyLength }), { resolver });
    expect(result.results.map((signature) => signature.status.result)).toEqual(['pass']);
  });
});
