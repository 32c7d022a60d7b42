import crypto, { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type KeyParsingFunctions, rememberParsedPublicKeys } from './remembered-public-keys';

/** node:crypto's two functions, counting how often a key is really parsed. */
function countingCrypto(): KeyParsingFunctions & { parses: () => number } {
  let parses = 0;
  return {
    createPublicKey: (input) => {
      parses += 1;
      return crypto.createPublicKey(input);
    },
    verify: crypto.verify,
    parses: () => parses,
  };
}

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 1024 });
const der = (key: KeyObject) => ({ key: key.export({ type: 'spki', format: 'der' }), format: 'der' as const, type: 'spki' as const });
const pem = (key: KeyObject) => key.export({ type: 'pkcs1', format: 'pem' }).toString();

describe('rememberParsedPublicKeys', () => {
  const signer = rsa();
  const data = Buffer.from('from:Interac <notify@payments.interac.ca>\r\nsubject:INTERAC e-Transfer\r\n');
  const signature = crypto.sign('sha256', data, signer.privateKey);

  it('given a key parsed from its DER bytes, when the same bytes come again, then the parsed key is answered without parsing', () => {
    const lib = countingCrypto();
    rememberParsedPublicKeys(lib);

    const first = lib.createPublicKey(der(signer.publicKey));
    const second = lib.createPublicKey(der(signer.publicKey));

    expect(second).toBe(first);
    expect(lib.parses()).toBe(1);
    expect(first.equals(signer.publicKey)).toBe(true);
  });

  it('given a remembered key, when the domain publishes another (new DNS text), then the new one is parsed and used', () => {
    const lib = countingCrypto();
    rememberParsedPublicKeys(lib);
    const rotated = rsa();

    lib.createPublicKey(der(signer.publicKey));
    const next = lib.createPublicKey(der(rotated.publicKey));

    expect(lib.parses()).toBe(2);
    expect(next.equals(rotated.publicKey)).toBe(true);
  });

  it('given the same bytes read as another key type, then they are parsed as that type, not answered from the other', () => {
    const lib = countingCrypto();
    rememberParsedPublicKeys(lib);
    const bare = signer.publicKey.export({ type: 'pkcs1', format: 'der' });

    lib.createPublicKey({ key: bare, format: 'der', type: 'pkcs1' });
    expect(() => lib.createPublicKey({ key: bare, format: 'der', type: 'spki' })).toThrow();
    expect(lib.parses()).toBe(2);
  });

  it('given a PEM key, when signatures are verified with it, then it is parsed once and every verdict is node:crypto’s', () => {
    const lib = countingCrypto();
    rememberParsedPublicKeys(lib);
    const key = pem(signer.publicKey);

    expect(lib.verify('sha256', data, key, signature)).toBe(true);
    expect(lib.verify('sha256', Buffer.from('tampered'), key, signature)).toBe(false);
    expect(lib.verify('sha256', data, pem(rsa().publicKey), signature)).toBe(false);
    expect(lib.parses()).toBe(2);
  });

  it('given input that does not parse, then node:crypto’s own error is thrown every time and nothing is remembered', () => {
    const lib = countingCrypto();
    rememberParsedPublicKeys(lib);
    const garbage = { key: Buffer.from('not a key'), format: 'der' as const, type: 'spki' as const };

    expect(() => lib.createPublicKey(garbage)).toThrow();
    expect(() => lib.createPublicKey(garbage)).toThrow();
    expect(lib.parses()).toBe(2);
    const nodeError = captured(() => crypto.verify('sha256', data, 'not a pem', signature));
    expect(captured(() => lib.verify('sha256', data, 'not a pem', signature))).toEqual(nodeError);
  });

  it('given a key object or another form of input, then it goes to node:crypto as it is', () => {
    const lib = countingCrypto();
    rememberParsedPublicKeys(lib);

    expect(lib.verify('sha256', data, signer.publicKey, signature)).toBe(true);
    const jwk = signer.publicKey.export({ format: 'jwk' });
    lib.createPublicKey({ key: jwk, format: 'jwk' });
    lib.createPublicKey({ key: jwk, format: 'jwk' });
    expect(lib.parses()).toBe(2);
  });

  it('given a remembered key, when mailauth exports it to PEM for every message, then node:crypto exports it once and each answer is its text', () => {
    const lib = countingCrypto();
    rememberParsedPublicKeys(lib);
    const exports = jest.spyOn(Object.getPrototypeOf(signer.publicKey) as KeyObject, 'export');
    try {
      const key = lib.createPublicKey(der(signer.publicKey));
      const again = lib.createPublicKey(der(signer.publicKey));

      const pems = [key, again, key].map((parsed) => parsed.export({ type: 'pkcs1', format: 'pem' }));
      const spki = again.export({ type: 'spki', format: 'pem' });

      expect(pems).toEqual(Array(3).fill(signer.publicKey.export({ type: 'pkcs1', format: 'pem' })));
      expect(spki).toBe(signer.publicKey.export({ type: 'spki', format: 'pem' }));
      expect(exports.mock.contexts.filter((context) => context === key)).toHaveLength(2);
      expect(lib.verify('sha256', data, pems[0] as string, signature)).toBe(true);
    } finally {
      exports.mockRestore();
    }
  });

  it('given a remembered key, when it is exported to DER, then every caller gets its own bytes, and a failing export fails every time', () => {
    const lib = countingCrypto();
    rememberParsedPublicKeys(lib);
    const key = lib.createPublicKey(der(signer.publicKey));

    const first = key.export({ type: 'spki', format: 'der' });
    first.fill(0);
    expect(key.export({ type: 'spki', format: 'der' })).toEqual(signer.publicKey.export({ type: 'spki', format: 'der' }));
    const nodeError = captured(() => signer.publicKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(captured(() => key.export({ type: 'pkcs8', format: 'pem' }))).toEqual(nodeError);
    expect(captured(() => key.export({ type: 'pkcs8', format: 'pem' }))).toEqual(nodeError);
  });
});

function captured(run: () => unknown): { message: string; code?: string } {
  try {
    run();
  } catch (error) {
    const { message, code } = error as Error & { code?: string };
    return { message, code };
  }
  throw new Error('expected an error');
}
