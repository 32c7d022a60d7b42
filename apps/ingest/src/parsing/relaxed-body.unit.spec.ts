import { buildNotice, dnsOverridesFor, NOTICE_CORPUS, type NoticeSpec, signEmail, testDkimKey } from '@pp/testing';
import { overridesResolver } from '../authentication/dkim-resolver';
import { authenticateNotice } from '../authentication/notice-authenticator';
import { parseNotice } from './notice-parser';
import { relaxedHeaderValue, withRelaxedBody } from './relaxed-body';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const relaxed = (raw: string) => text(withRelaxedBody(Buffer.from(raw)));

describe('withRelaxedBody: the body as a relaxed DKIM signature reads it', () => {
  it('given runs of blanks inside body lines, then each is one space; the header block is left as it is', () => {
    expect(relaxed('Subject:  Two  spaces\r\n\r\nMontant  :\t\t25,00  $\r\n')).toBe('Subject:  Two  spaces\r\n\r\nMontant : 25,00 $\r\n');
  });

  it('given blanks at line ends (after a quoted-printable soft break too), then they are gone, bare line feeds included', () => {
    expect(relaxed('A: b\n\nd=C3=A9pos=  \nmontant \t\nend')).toBe('A: b\n\nd=C3=A9pos=\nmontant\nend');
  });

  it('given a message with no body, or one that needs nothing changed, then the same bytes', () => {
    expect(relaxed('Subject: x\r\nTo: y')).toBe('Subject: x\r\nTo: y');
    expect(relaxed('Subject: x\r\n\r\nclean line\r\n')).toBe('Subject: x\r\n\r\nclean line\r\n');
  });

  it('given a body of a million blanks, then one pass: one space, at once', () => {
    const started = performance.now();
    expect(relaxed(`S: x\n\n${' '.repeat(1_000_000)}x`)).toBe('S: x\n\n x');
    expect(performance.now() - started).toBeLessThan(1000);
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
