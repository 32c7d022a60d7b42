import { buildNotice, dnsOverridesFor, NOTICE_CORPUS, type NoticeSpec, signEmail, testDkimKey } from '@pp/testing';
import { overridesResolver } from '../authentication/dkim-resolver';
import { authenticateNotice } from '../authentication/notice-authenticator';
import { readMime } from './mime-reader';
import { parseNotice } from './notice-parser';
import { relaxedHeaderValue, relaxedText, withoutSoftBreakPadding } from './relaxed-body';

const mended = (raw: string) => Buffer.from(withoutSoftBreakPadding(Buffer.from(raw))).toString('utf8');

describe('reading a notice as its relaxed signature reads it', () => {
  it('given blanks after a quoted-printable soft line break, then they are dropped: the break stays soft', () => {
    expect(mended('A: b\r\n\r\nd=C3=A9pos=  \r\nmontant=\t\nend=')).toBe('A: b\r\n\r\nd=C3=A9pos=\r\nmontant=\nend=');
  });

  it('given blanks anywhere else (a boundary with spaces, format=flowed line ends, a folded header), then the bytes are the same', () => {
    const raw = 'Content-Type: multipart/alternative;\r\n boundary="b  1"\r\n\r\n--b  1\r\nflowed line \r\na = b\r\n--b  1--\r\n';
    expect(mended(raw)).toBe(raw);
  });

  it('given a million blanks after a soft break, then one pass: all dropped, at once', () => {
    const started = performance.now();
    expect(mended(`S: x\n\nx=${' '.repeat(1_000_000)}\ny`)).toBe('S: x\n\nx=\ny');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('given a multipart message whose boundary holds two spaces, then its text part is still read', async () => {
    const raw = 'Subject: x\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="b  1"\r\n\r\n--b  1\r\nContent-Type: text/plain\r\n\r\nAmount:  $25.00\r\n--b  1--\r\n';
    expect((await readMime(Buffer.from(raw)))?.text).toBe('Amount: $25.00');
  });

  it('given decoded text, then relaxedText makes every run of blanks one space and drops those at line ends', () => {
    expect(relaxedText('Montant  :\t\t25,00  $ \nfin\t')).toBe('Montant : 25,00 $\nfin');
  });

  it('given a header value with runs of blanks, then relaxedHeaderValue reads them as one space, none at the ends', () => {
    expect(relaxedHeaderValue(' INTERAC  e-Transfer:\t you received  money ')).toBe('INTERAC e-Transfer: you received money');
  });
});

/*
 * Edits a relaxed/relaxed signature cannot see (RFC 6376 §3.4): each leaves the signature valid, so each must leave
 * what the parser reads unchanged, or a copy altered so would read as other text than the one Interac signed.
 */
describe('a signed notice edited where its relaxed signature does not look', () => {
  const interac = testDkimKey();
  const policy = { trustedDomains: ['payments.interac.ca'], resolver: overridesResolver(dnsOverridesFor(interac)) };

  /** `raw` with `edit` applied to its body (after the empty line that ends the header block). */
  const inBody = (raw: string, edit: (body: string) => string) => {
    const end = /\r?\n\r?\n/.exec(raw)!;
    const start = end.index + end[0].length;
    return raw.slice(0, start) + edit(raw.slice(start));
  };
  const EDITS: Record<string, (raw: string) => string> = {
    'every run of blanks doubled': (raw) => inBody(raw, (body) => body.replace(/[ \t]+/g, (run) => run + run)),
    'blanks at the end of every line': (raw) => inBody(raw, (body) => body.replace(/\r?\n/g, (eol) => ` \t ${eol}`)),
    'tabs for spaces': (raw) => inBody(raw, (body) => body.replace(/ /g, '\t')),
  };
  const specs: Array<[string, NoticeSpec]> = [
    ...NOTICE_CORPUS.filter((fixture) => fixture.expected.status === 'parsed').map((fixture) => [fixture.name, fixture.spec] as [string, NoticeSpec]),
    ['quoted-printable, French, older layout, wrapped', { language: 'fr', layout: 'legacy', encoding: 'quoted-printable', wrap: 60 }],
    ['quoted-printable, English, inline', { layout: 'inline', encoding: 'quoted-printable', wrap: 50 }],
  ];

  // A base64 body holds no blanks to double or turn into tabs.
  const applies = (spec: NoticeSpec, edit: string) => spec.encoding !== 'base64' || edit === 'blanks at the end of every line';
  it.each(specs.flatMap(([name, spec]) => Object.keys(EDITS).filter((edit) => applies(spec, edit)).map((edit) => [name, edit, spec] as const)))('given %s with %s, then it still verifies and reads the same', async (_name, edit, spec) => {
    const signed = await signEmail(buildNotice(spec));
    const edited = EDITS[edit](signed);
    expect(edited).not.toBe(signed);
    expect(await authenticateNotice(Buffer.from(edited), policy)).toMatchObject({ authenticated: true });
    expect(await parseNotice(Buffer.from(edited))).toEqual(await parseNotice(Buffer.from(signed)));
  });

  it('given a payer’s Message that writes Interac’s labels, and its copy with the blanks before Interac’s own labels doubled, then the reference is still Interac’s', async () => {
    const spec: NoticeSpec = {
      language: 'fr',
      layout: 'inline',
      message: 'PP-7K3M9Q Date : 31 août 2026 Numéro de référence : CFAKEREF12 Envoyé par : ELORIE BRAEN Montant : 25,00 $',
    };
    const signed = await signEmail(buildNotice(spec));
    const edited = inBody(signed, (body) => body.replace(/ :/g, '  :'));
    expect(await authenticateNotice(Buffer.from(edited), policy)).toMatchObject({ authenticated: true });
    const genuine = await parseNotice(Buffer.from(signed));
    expect(genuine).toMatchObject({ status: 'parsed', notice: { reference_number: 'C1AVzjTtqRCM' } });
    expect(await parseNotice(Buffer.from(edited))).toEqual(genuine);
  });
});
