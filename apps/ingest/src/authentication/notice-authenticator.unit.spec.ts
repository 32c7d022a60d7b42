import { DomainError, ErrorCode } from '@pp/contracts';
import { buildNotice, DEFAULT_SIGNED_HEADERS, dnsOverridesFor, NOTICE_CORPUS, signEmail, testDkimKey } from '@pp/testing';
import fc from 'fast-check';
import PostalMime from 'postal-mime';
import { inspectRawMessage } from '../intake/raw-message';
import { cpuTime } from '../worker/cpu-time.fixture';
import type { AuthenticationResult } from './authentication.types';
import { verifyDkim } from './dkim-verification';
import { overridesResolver } from './dkim-resolver';
import { authenticateNotice, type AuthenticationPolicy, MAX_DKIM_SIGNATURES } from './notice-authenticator';

const interac = testDkimKey();
const impostor = testDkimKey('payments-interac.example', 'mail');
const policy: AuthenticationPolicy = {
  trustedDomains: ['payments.interac.ca'],
  resolver: overridesResolver(dnsOverridesFor(interac, impostor)),
};
const authenticate = (raw: string): Promise<AuthenticationResult> => authenticateNotice(Buffer.from(raw), policy);
const failsWith = (...reasons: string[]) => ({ authenticated: false, reasons: expect.arrayContaining(reasons) });
const SIGNED_TO_ACME = { signed_recipient: 'payments@acme.example', reasons: [] };
/** Replaces one header line of an unsigned notice (before signing, so the signature covers the change). */
const withHeader = (raw: string, name: string, line: string | null) =>
  raw.replace(new RegExp(`^${name}: .*\n`, 'm'), line === null ? '' : `${line}\n`);
/** Why intake refuses `raw` (its error code), or 'stored'. */
const intakeAnswer = (raw: string) => {
  try {
    inspectRawMessage(Buffer.from(raw));
    return 'stored';
  } catch (error) {
    return error instanceof DomainError ? error.code : error;
  }
};
const B_SHA256 = expect.stringMatching(/^[0-9a-f]{64}$/);

describe('notice authentication', () => {
  it.each(NOTICE_CORPUS.map((fixture) => [fixture.name, fixture] as const))('accepts the signed fixture: %s', async (_name, fixture) => {
    const result = await authenticate(await signEmail(buildNotice(fixture.spec)));
    expect(result).toEqual({
      authenticated: true,
      signing_domain: 'payments.interac.ca',
      selector: interac.selector,
      from: `${fixture.spec.fromMailbox ?? 'notify'}@payments.interac.ca`,
      recipient: SIGNED_TO_ACME,
      signatures: [{ signing_domain: 'payments.interac.ca', b_sha256: B_SHA256 }],
    });
  });

  it('refuses an unsigned notice', async () => {
    expect(await authenticate(buildNotice())).toEqual({
      authenticated: false,
      reasons: ['dkim_missing'],
      from: 'notify@payments.interac.ca',
      recipient: { signed_recipient: null, reasons: ['recipient_not_signed'] },
    });
  });

  it('given a signature made with rsa-sha1 (RFC 8301: must not be used to verify), then it counts as failed', async () => {
    const { dkimSign } = await import('mailauth/lib/dkim/sign');
    const raw = buildNotice().replace(/(?<!\r)\n/g, '\r\n');
    const signed = await dkimSign(raw, {
      signatureData: [{ signingDomain: interac.domain, selector: interac.selector, privateKey: interac.privateKey, algorithm: 'rsa-sha1', canonicalization: 'relaxed/relaxed', headerList: DEFAULT_SIGNED_HEADERS }],
    } as Parameters<typeof dkimSign>[1]);
    expect(signed.signatures).toContain('a=rsa-sha1');
    expect(await authenticate(signed.signatures + raw)).toMatchObject(failsWith('dkim_failed'));
  });

  it('given a key published with t=y (its domain testing DKIM: RFC 6376 says treat the mail as unsigned), then the signature counts as failed', async () => {
    const testing = { ...policy, resolver: overridesResolver({ [interac.name]: interac.record.replace('v=DKIM1;', 'v=DKIM1; t=y;') }) };
    expect(await authenticateNotice(Buffer.from(await signEmail(buildNotice())), testing)).toMatchObject(failsWith('dkim_failed'));
  });

  it('refuses a notice signed by another domain', async () => {
    expect(await authenticate(await signEmail(buildNotice(), { key: impostor }))).toMatchObject(failsWith('dkim_untrusted_domain'));
  });

  it('ignores a fake Authentication-Results header and a forged DKIM-Signature', async () => {
    const forged = buildNotice({
      extraHeaders: [
        'Authentication-Results: mx.acme.example; dkim=pass header.d=payments.interac.ca; spf=pass; dmarc=pass',
        'DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=payments.interac.ca; s=test2026; h=from:to:subject; bh=AAAA; b=AAAA',
      ],
    });
    expect(await authenticate(forged)).toMatchObject(failsWith('dkim_failed'));
  });

  describe('a message with many signatures', () => {
    /**
     * Signatures above Interac's valid one: each a trusted domain's, with a selector of its own (a key lookup each, were
     * they verified), their field name written `name` (the library reads a fold before the colon as the same field).
     */
    const underSignatures = async (extra: number, name = 'DKIM-Signature:') => {
      const signed = await signEmail(buildNotice());
      const forged = Array.from({ length: extra }, (_, index) => `${name} v=1; a=rsa-sha256; c=relaxed/relaxed; d=payments.interac.ca; s=flood${index}; h=from; bh=AAAA; b=AAAA\r\n`);
      return forged.join('') + signed;
    };

    it(`given ${MAX_DKIM_SIGNATURES} in all, then the valid one is still verified`, async () => {
      expect(await authenticate(await underSignatures(MAX_DKIM_SIGNATURES - 1))).toMatchObject({ authenticated: true });
    });

    it(`given more than ${MAX_DKIM_SIGNATURES}, then none is verified and no key is looked up: refused, nothing established`, async () => {
      const lookups: string[] = [];
      const counting: AuthenticationPolicy = { ...policy, resolver: (name, rrtype) => (lookups.push(name), policy.resolver(name, rrtype)) };
      const result = await authenticateNotice(Buffer.from(await underSignatures(MAX_DKIM_SIGNATURES)), counting);
      expect(result).toEqual({ authenticated: false, reasons: ['dkim_too_many_signatures'], from: null, recipient: { signed_recipient: null, reasons: ['recipient_not_signed'] } });
      expect(lookups).toEqual([]);
    });

    it.each([
      ['a fold between the name and its colon', 'DKIM-Signature\r\n :'],
      ['blanks and a fold before the colon', 'dkim-signature \r\n\t:'],
    ])('given more than the cap with %s, then they are counted as the library reads them: refused, no key looked up', async (_what, name) => {
      const lookups: string[] = [];
      const counting: AuthenticationPolicy = { ...policy, resolver: (key, rrtype) => (lookups.push(key), policy.resolver(key, rrtype)) };
      const result = await authenticateNotice(Buffer.from(await underSignatures(MAX_DKIM_SIGNATURES, name)), counting);
      expect(result).toMatchObject({ authenticated: false, reasons: ['dkim_too_many_signatures'] });
      expect(lookups).toEqual([]);
    });

    it('given a first line with blanks before a signature’s name, then the library’s signature is counted too', async () => {
      const lookups: string[] = [];
      const counting: AuthenticationPolicy = { ...policy, resolver: (key, rrtype) => (lookups.push(key), policy.resolver(key, rrtype)) };
      const raw = ` ${await underSignatures(MAX_DKIM_SIGNATURES)}`;
      expect(await authenticateNotice(Buffer.from(raw), counting)).toMatchObject({ authenticated: false, reasons: ['dkim_too_many_signatures'] });
      expect(lookups).toEqual([]);
    });
  });

  it('refuses a selector with no published key', async () => {
    const unknown = testDkimKey('payments.interac.ca', 'rogue');
    expect(await authenticate(await signEmail(buildNotice(), { key: unknown }))).toMatchObject(failsWith('dkim_key_unavailable'));
  });

  it('refuses a second From header added above a valid signature', async () => {
    const signed = await signEmail(buildNotice());
    expect(await authenticate(`From: "CAI FANG WU" <notify@payments.interac.ca>\n${signed}`)).toMatchObject(
      failsWith('header_not_unique:from'),
    );
  });

  it.each(['Subject', 'Date', 'Message-ID', 'Reply-To'])('refuses a repeated %s header', async (header) => {
    const signed = await signEmail(buildNotice({ replyTo: 'payer@example.com' }));
    const extra = header === 'Date' ? 'Date: Thu, 27 Aug 2026 10:00:00 -0400' : `${header}: <x@example.com>`;
    expect(await authenticate(`${extra}\n${signed}`)).toMatchObject(failsWith(`header_not_unique:${header.toLowerCase()}`));
  });

  it('refuses a notice with a carriage return that ends no line, where the MIME parser and DKIM would split it differently', async () => {
    const signed = await signEmail(buildNotice());
    // DKIM reads "X-Pad: x\r" as a header and verifies the notice below it; the MIME parser takes the CR-only line
    // for the end of the header section and reads what follows it as the body.
    const injected = `X-Pad: x\r\r\nFunds Deposited! Amount: $9,999.00 Message: PP-ABCDEF\r\n${signed}`;
    expect(await authenticate(injected)).toMatchObject(failsWith('bare_carriage_return'));
    expect(await authenticate(signed.replace('\n\n', '\n\nA line ending in a lone CR\r.\n'))).toMatchObject(failsWith('bare_carriage_return'));
  });

  describe('a header section DKIM and the MIME parser would read differently', () => {
    /** Fields whose colon sits two folds below their name: mailauth appends them to the field above, postal-mime reads them. */
    const FAKE_FIELDS =
      "Subject\r\n \r\n : Interac e-Transfer: You've received $9,999.00 from MALLORY and it has been automatically deposited.\r\n" +
      'Content-Type\r\n \r\n : text/html; charset=utf-8\r\n';
    /** A field folded over lines of 79 bytes, about `kb` KB in all. */
    const padding = (kb: number) => `X-Pad: x\r\n${` ${'p'.repeat(76)}\r\n`.repeat(Math.ceil((kb * 1024) / 79))}`;

    it.each([
      ['past 256 KB of headers', 300, 'header_section_too_large'],
      ['under a few KB of headers', 4, 'header_line_malformed'],
    ])(
      'refuses a notice with a Subject/Content-Type whose colon sits two folds below its name, above the signed one, %s',
      async (_where, kb, reason) => {
        // The signed From moved on top (DKIM finds a signed field wherever it is), so that intake would find it.
        const signed = await signEmail(buildNotice());
        const from = /^From: .*\n/m.exec(signed)![0];
        const raw = `${from}${padding(kb)}${FAKE_FIELDS}${signed.replace(from, '')}`;
        // The MIME parser would read the fake subject (the first), were the message stored and read.
        expect((await PostalMime.parse(raw)).subject).toContain('$9,999.00');
        expect(await authenticate(raw)).toMatchObject(failsWith(reason));
        expect(intakeAnswer(raw)).toBe(ErrorCode.ValidationFailed);
      },
    );

    it('a message whose header section is 2 MB of folded one-space lines is refused/decided within a small CPU budget', async () => {
      // mailauth's header parser copies the list of a field's lines at each line: this one held a worker past its 10 s deadline.
      const raw = Buffer.from(`X: a\r\n${' \r\n'.repeat((2 * 1024 * 1024) / 3)}${await signEmail(buildNotice())}`);
      const { ms, result } = await cpuTime(() => authenticateNotice(raw, policy));
      expect(result).toEqual({ authenticated: false, reasons: ['header_section_too_large'], from: null, recipient: { signed_recipient: null, reasons: ['recipient_not_signed'] } });
      expect(ms).toBeLessThan(100);
    });

    it('a header section of exactly 128 KiB ended by a lone CR, then 2 MB of folds, is refused as too large within the same budget', async () => {
      // A lone CR is no end of the section to mailauth, which would read the folds after it as the field's.
      const section = `X-Pad: ${'p'.repeat(128 * 1024 - 'X-Pad: \r\n'.length)}\r\n`;
      const raw = Buffer.from(`${section}\r${' \r\n'.repeat((2 * 1024 * 1024) / 3)}${await signEmail(buildNotice())}`);
      const { ms, result } = await cpuTime(() => authenticateNotice(raw, policy));
      expect(result).toMatchObject({ authenticated: false, reasons: ['header_section_too_large'] });
      expect(ms).toBeLessThan(100);
    });

    it('reads the same fields as the MIME parser in every header section it does not refuse', async () => {
      const line = fc.constantFrom(
        'From: a@example.com', 'Subject: x', 'Subject : y', 'X-A:', 'Content-Type: text/html', ' folded', '\tfolded', ' ', ' : z',
        'Subject', 'no colon', ': nameless', 'Fo o: x', '\u00a0From: b@example.com', 'Subj\u00e9ct: x', '\ufeffSubject: x',
      );
      await fc.assert(
        fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 8 }), async (lines) => {
          const raw = Buffer.from(`${lines.join('\r\n')}\r\n\r\nbody\r\n`);
          const result = await authenticateNotice(raw, policy);
          if (!result.authenticated && result.reasons.includes('header_line_malformed')) return;
          const dkim = (await verifyDkim(raw, { resolver: policy.resolver })).headers?.parsed.map((header) => header.key) ?? [];
          const mime = (await PostalMime.parse(raw)).headers.map((header) => header.key);
          expect(dkim).toEqual(mime);
        }),
        { numRuns: 300 },
      );
    });
  });

  it('refuses a notice without a Date header', async () => {
    const raw = buildNotice().replace(/^Date: .*\n/m, '');
    expect(await authenticate(await signEmail(raw))).toMatchObject(failsWith('header_missing:date'));
  });

  it('refuses a signature with an l= body length tag, even when nothing was appended', async () => {
    const raw = buildNotice();
    const signed = await signEmail(raw, { maxBodyLength: raw.length });
    expect(await authenticate(signed)).toMatchObject(failsWith('dkim_body_length_tag'));
    const appended = `${signed}\nMessage: PP-4H8WXY\n`;
    expect(await authenticate(appended)).toMatchObject(failsWith('dkim_body_length_tag'));
  });

  it('takes no recipient from a signature that does not cover To (the sender is still proven)', async () => {
    const signed = await signEmail(buildNotice(), { headerList: DEFAULT_SIGNED_HEADERS.filter((header) => header !== 'to') });
    expect(await authenticate(signed)).toMatchObject({ authenticated: true, recipient: { signed_recipient: null, reasons: ['recipient_not_signed'] } });
  });

  it.each(['subject', 'mime-version', 'content-type', 'content-transfer-encoding'])('refuses a signature that does not cover %s', async (header) => {
    const signed = await signEmail(buildNotice(), { headerList: DEFAULT_SIGNED_HEADERS.filter((name) => name !== header) });
    const result = await authenticate(signed);
    expect(result).toMatchObject(failsWith('dkim_headers_not_covered', `header_not_signed:${header}`));
    expect(result.authenticated === false && result.reasons.filter((reason) => reason.startsWith('header_not_signed:'))).toEqual([`header_not_signed:${header}`]);
  });

  it('requires coverage only of the MIME headers the message has', async () => {
    const raw = withHeader(buildNotice(), 'Content-Transfer-Encoding', null);
    const signed = await signEmail(raw, { headerList: DEFAULT_SIGNED_HEADERS.filter((name) => name !== 'content-transfer-encoding') });
    expect(await authenticate(signed)).toMatchObject({ authenticated: true, recipient: SIGNED_TO_ACME });
  });

  it.each(['Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: base64', 'MIME-Version: 1.0'])(
    'refuses a second MIME header added above a valid signature: %s',
    async (line) => {
      const signed = await signEmail(buildNotice());
      const name = line.slice(0, line.indexOf(':')).toLowerCase();
      expect(await authenticate(`${line}\n${signed}`)).toMatchObject(failsWith(`header_not_unique:${name}`));
    },
  );

  it('refuses a top-level Content-Disposition the signature does not cover: "attachment" would make the MIME parser drop the text', async () => {
    const signed = await signEmail(buildNotice());
    const result = await authenticate(`Content-Disposition: attachment\n${signed}`);
    expect(result).toMatchObject(failsWith('dkim_headers_not_covered', 'header_not_signed:content-disposition'));
    const covered = await signEmail(`Content-Disposition: inline\n${buildNotice()}`, { headerList: [...DEFAULT_SIGNED_HEADERS, 'content-disposition'] });
    expect(await authenticate(covered)).toMatchObject({ authenticated: true });
  });

  describe('the signatures a notice claims', () => {
    it('are the same in every copy that still verifies, however it was changed around them or its b= spelled', async () => {
      const signed = await signEmail(buildNotice());
      const original = await authenticate(signed);
      const refolded = signed.replace(/(\bb=)([A-Za-z0-9+/]{20})/, '$1$2\n\t ');
      expect(refolded).not.toBe(signed);
      for (const copy of [`${signed}\n\n\n`, `X-Relay: mx.example\n${signed}`, refolded]) {
        const result = await authenticate(copy);
        expect(result).toMatchObject({ authenticated: true });
        expect(result.authenticated && result.signatures).toEqual(original.authenticated && original.signatures);
      }
    });

    it('name each passing trusted signature once: a signature field copied twice is one, a second signature is claimed too', async () => {
      const signed = await signEmail(buildNotice());
      const original = await authenticate(signed);
      const field = signed.slice(0, signed.indexOf('From: '));
      const doubled = await authenticate(`${field}${signed}`);
      expect(doubled.authenticated && doubled.signatures).toEqual(original.authenticated && original.signatures);
      // Signed again on top: the new signature is the aligned one, and a copy without it still carries the first.
      const resigned = await authenticate(await signEmail(signed, { signTime: new Date('2026-01-01T00:00:00Z') }));
      expect(resigned.authenticated && resigned.signatures).toHaveLength(2);
      expect(resigned.authenticated && resigned.signatures).toContainEqual(original.authenticated && original.signatures[0]);
    });
  });

  it('refuses a sender address that is not an Interac notification mailbox', async () => {
    const signed = await signEmail(buildNotice({ fromMailbox: 'alerts' }));
    expect(await authenticate(signed)).toMatchObject(failsWith('from_not_trusted'));
  });

  it('refuses a trusted signature over a From on another domain', async () => {
    const signed = await signEmail(buildNotice({ fromDomain: 'payments-interac.example' }));
    expect(await authenticate(signed)).toMatchObject(failsWith('from_not_trusted'));
  });

  it.each([
    ['the amount', (raw: string) => raw.replace('Amount:\n$1,200.00', 'Amount:\n$9,200.00')],
    ['the memo', (raw: string) => raw.replace('Message:\nPP-7K3M9Q', 'Message:\nPP-4H8WXY')],
    ['the subject', (raw: string) => raw.replace("You've received $1,200.00", "You've received $9,200.00")],
    ['the recipient', (raw: string) => raw.replace('To: "ACME WIDGETS INC." <payments@acme.example>', 'To: <thief@evil.example>')],
  ])('refuses a notice whose %s was changed after signing', async (_what, tamper) => {
    const signed = await signEmail(buildNotice());
    const tampered = tamper(signed);
    expect(tampered).not.toBe(signed);
    expect(await authenticate(tampered)).toMatchObject(failsWith('dkim_failed'));
  });

  it('trusts notify@ and catch@ on every configured domain', async () => {
    const other = testDkimKey('notify.bank.example', 's1');
    const both: AuthenticationPolicy = {
      trustedDomains: ['payments.interac.ca', 'notify.bank.example'],
      resolver: overridesResolver(dnsOverridesFor(interac, other)),
    };
    const signed = await signEmail(buildNotice({ fromMailbox: 'catch', fromDomain: 'notify.bank.example' }), { key: other });
    expect(await authenticateNotice(Buffer.from(signed), both)).toMatchObject({ authenticated: true, signing_domain: 'notify.bank.example' });
  });

  describe('the signed recipient', () => {
    it('reads it from the signed To header, whatever Delivered-To says', async () => {
      const signed = await signEmail(buildNotice());
      const redelivered = `Delivered-To: payments@shop-b.example\n${signed}`;
      expect(await authenticate(redelivered)).toMatchObject({ authenticated: true, recipient: SIGNED_TO_ACME });
    });

    it('takes the signed bottom To when a second To is prepended above the signature, and says there are several', async () => {
      const signed = await signEmail(buildNotice());
      const prepended = `To: <payments@shop-b.example>\n${signed}`;
      expect(await authenticate(prepended)).toMatchObject({
        authenticated: true,
        recipient: { signed_recipient: 'payments@acme.example', reasons: ['recipient_not_unique'] },
      });
    });

    it('fails the signature when a second To is added below the signed one', async () => {
      const signed = await signEmail(buildNotice());
      const appended = signed.replace(/^(To: .*\n)/m, '$1To: <payments@shop-b.example>\n');
      expect(await authenticate(appended)).toMatchObject(failsWith('dkim_failed'));
    });

    it.each([
      ['two mailboxes', 'To: payments@acme.example, payments@shop-b.example'],
      ['a group', 'To: Shops: payments@acme.example;'],
      ['an empty group', 'To: undisclosed-recipients:;'],
      ['no address', 'To: ACME WIDGETS INC.'],
      // The display name is the payer's text (the recipient name he typed): it must not supply the address read.
      ['another address behind a quoted name that closes early', 'To: "Bob" <payments@acme.example> "x" <payer@attacker.example>'],
      ['another address behind an unquoted name', 'To: Bob <payments@acme.example> x <payer@attacker.example>'],
      ['another address behind an encoded word with a raw angle bracket', 'To: =?utf-8?Q?Bob_<payments@acme.example>?= <payer@attacker.example>'],
      ['an address in a quoted name never closed', 'To: "Bob <payments@acme.example>'],
      ['an address with text after it', 'To: Bob <payments@acme.example> x'],
    ])('gives no signed recipient for a To header naming %s', async (_what, line) => {
      const signed = await signEmail(withHeader(buildNotice(), 'To', line));
      expect(await authenticate(signed)).toMatchObject({
        authenticated: true,
        recipient: { signed_recipient: null, reasons: ['recipient_not_single_mailbox'] },
      });
    });

    it('gives no signed recipient when the recipient name typed at the bank holds an address, as the notice quotes it', async () => {
      const signed = await signEmail(buildNotice({ recipientName: 'Bob" <payments@acme.example> "x', to: 'payer@attacker.example' }));
      expect(await authenticate(signed)).toMatchObject({ recipient: { signed_recipient: null, reasons: ['recipient_not_single_mailbox'] } });
    });

    it.each([
      ['a bare address', 'To: payments@acme.example'],
      ['an angle-address alone', 'To: <Payments@Acme.example>'],
      ['an unquoted name', "To: SAMPLE LANDLORD O'BRIEN JR. <payments@acme.example>"],
      ['a quoted name with escapes and specials', 'To: "Jane \\"JJ\\" O\'Brien, <Inc>" <payments@acme.example>'],
      ['an encoded word', 'To: =?UTF-8?B?w4lsb3JpZSBCcmHDq24=?= <payments@acme.example>'],
      ['a folded value', 'To: ACME WIDGETS INC.\n <payments@acme.example>'],
    ])('reads the address of %s', async (_what, line) => {
      const signed = await signEmail(withHeader(buildNotice(), 'To', line));
      expect(await authenticate(signed)).toMatchObject({ authenticated: true, recipient: SIGNED_TO_ACME });
    });

    it('gives no signed recipient for a notice without To', async () => {
      const signed = await signEmail(withHeader(buildNotice(), 'To', null));
      expect(await authenticate(signed)).toMatchObject({ authenticated: true, recipient: { signed_recipient: null, reasons: ['recipient_missing'] } });
    });

    it('reads the address, never an address written in the display name', async () => {
      const signed = await signEmail(withHeader(buildNotice(), 'To', 'To: "payments@shop-b.example" <Payer@Attacker.example>'));
      expect(await authenticate(signed)).toMatchObject({ recipient: { signed_recipient: 'payer@attacker.example', reasons: [] } });
    });
  });
});
