import fc from 'fast-check';
import type { DKIMVerifyResult } from 'mailauth';
import { DkimVerifier } from 'mailauth/lib/dkim/dkim-verifier';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { buildNotice, dnsOverridesFor, NOTICE_CORPUS, signEmail, testDkimKey } from '@pp/testing';
import { overridesResolver } from './dkim-resolver';
import { LinearDkimVerifier, verifyDkim } from './dkim-verification';

const interac = testDkimKey();
const options = { resolver: overridesResolver(dnsOverridesFor(interac)), curTime: new Date('2026-11-27T12:00:00.000Z') };

/** Everything a verification answers that the authenticator could read, as comparable data. */
const outcome = (result: DKIMVerifyResult) => ({
  headerFrom: result.headerFrom,
  fromFields: result.fromFields,
  envelopeFrom: result.envelopeFrom,
  // Each result has a random id of its own.
  results: result.results.map(({ id: _random, ...rest }) => JSON.parse(JSON.stringify(rest)) as unknown),
  headers: (result.headers?.parsed ?? []).map((header) => [header.key, header.line.toString('latin1')]),
});

/** A verifier fed `chunks` one by one, as a stream would feed it, then finished. */
async function fedInChunks(verifier: DkimVerifier, chunks: readonly Buffer[]) {
  for (const chunk of chunks) await verifier.writeAsync(chunk);
  await verifier.finish();
  return outcome({ ...verifier, headers: verifier.headers || undefined });
}

const cut = (raw: Buffer, at: readonly number[]): Buffer[] => {
  const points = [...new Set(at.map((point) => point % (raw.length + 1)))].sort((a, b) => a - b);
  return [...points, raw.length].map((end, i) => raw.subarray(i === 0 ? 0 : points[i - 1], end));
};

let signed: string;
beforeAll(async () => {
  signed = await signEmail(buildNotice());
});

describe('the linear DKIM verifier answers as mailauth does', () => {
  it.each(NOTICE_CORPUS.map((fixture) => [fixture.name, fixture] as const))('for the signed fixture: %s', async (_name, fixture) => {
    const raw = Buffer.from(await signEmail(buildNotice(fixture.spec)));
    const ours = outcome(await verifyDkim(raw, options));
    expect(ours).toEqual(outcome(await dkimVerify(raw, options)));
    expect(ours.results).toEqual([expect.objectContaining({ status: expect.objectContaining({ result: 'pass' }) })]);
  });

  it.each([
    ['LF line ends', (raw: string) => raw],
    ['CRLF line ends', (raw: string) => raw.replace(/\n/g, '\r\n')],
    ['CR alone in places', (raw: string) => raw.replace(/\n\n/, '\r\n\r\r\n')],
    ['a changed body', (raw: string) => raw.replace('$1,200.00', '$9,200.00')],
    ['no empty line (no body)', (raw: string) => raw.slice(0, raw.indexOf('\n\n') + 1)],
    ['an empty first line', (raw: string) => `\n${raw}`],
    ['a CRLF first line', (raw: string) => `\r\n${raw}`],
    ['nothing', () => ''],
    ['one line feed', () => '\n'],
  ])('for a message with %s', async (_name, variant) => {
    const raw = Buffer.from(variant(signed));
    expect(outcome(await verifyDkim(raw, options))).toEqual(outcome(await dkimVerify(raw, options)));
  });

  it('for a signed message cut into chunks around the end of its header section', async () => {
    const raw = Buffer.from(signed.replace(/\n/g, '\r\n'));
    const end = raw.indexOf('\r\n\r\n');
    for (let first = end - 3; first <= end + 5; first++) {
      for (let second = first; second <= end + 5; second++) {
        const chunks = cut(raw, [first, second]);
        expect(await fedInChunks(new LinearDkimVerifier(options), chunks)).toEqual(await fedInChunks(new DkimVerifier(options), chunks));
      }
    }
  });

  it('for generated messages cut into chunks anywhere', async () => {
    // Pieces that make line ends of every kind, empty lines, folded and signed headers, and body text.
    const piece = fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\r\n\r\n', 'X-A: b', ' folded', 'From: x@payments.interac.ca', 'body  text ', '\t', ':');
    const messages = fc.oneof(
      fc.array(piece, { maxLength: 40 }).map((pieces) => Buffer.from(pieces.join(''))),
      fc.tuple(fc.nat(), fc.array(piece, { maxLength: 6 })).map(([at, pieces]) => {
        const where = at % (signed.length + 1);
        return Buffer.from(signed.slice(0, where) + pieces.join('') + signed.slice(where));
      }),
    );
    await fc.assert(
      fc.asyncProperty(messages, fc.array(fc.nat(), { maxLength: 6 }), async (raw, points) => {
        const chunks = cut(raw, points);
        const library = await fedInChunks(new DkimVerifier(options), chunks);
        expect(await fedInChunks(new LinearDkimVerifier(options), chunks)).toEqual(library);
        expect(outcome(await verifyDkim(raw, options))).toEqual(outcome(await dkimVerify(raw, options)));
      }),
      { numRuns: 300 },
    );
  });
});
