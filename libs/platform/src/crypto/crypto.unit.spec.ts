import { createHmac, createSecretKey, hkdfSync, randomBytes } from 'node:crypto';
import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config/load-config';
import { KeyRing } from './key-ring';
import { open, seal, SealError } from './sealed-box';
import { IsKeyRing, IsStrongSecret, weakSecretReason } from './secret-strength';
import { deriveKey, KeyDeriver, keyedDigest } from './server-keys';

const key32 = () => randomBytes(32).toString('base64');

describe('deriveKey and keyedDigest', () => {
  it('given one secret, when two labels are derived, then the keys differ and each is stable', () => {
    const secret = randomBytes(32).toString('hex');
    expect(deriveKey(secret, 'a').symmetricKeySize).toBe(32);
    expect(deriveKey(secret, 'a').equals(deriveKey(secret, 'a'))).toBe(true);
    expect(deriveKey(secret, 'a').equals(deriveKey(secret, 'b'))).toBe(false);
    expect(deriveKey(`${secret}x`, 'a').equals(deriveKey(secret, 'a'))).toBe(false);
  });

  it('given a secret, when a key is derived and used for a digest, then the bytes are plain HKDF-SHA256 and HMAC-SHA256 (names stored under them stay valid)', () => {
    const secret = 's'.repeat(32);
    const hkdf = Buffer.from(hkdfSync('sha256', secret, 'pp/server-keys/v1', 'names', 32));
    expect(deriveKey(secret, 'names').export().equals(hkdf)).toBe(true);
    expect(keyedDigest(deriveKey(secret, 'names'), 'ab', 'c')).toBe(createHmac('sha256', hkdf).update('2:ab').update('1:c').digest('hex'));
  });

  it('given a secret as text, bytes or a derived key, when a KeyDeriver derives labels, then it gives deriveKey’s bytes', () => {
    for (const secret of [randomBytes(32).toString('hex'), randomBytes(32), deriveKey('r'.repeat(32), 'root')]) {
      const deriver = new KeyDeriver(secret);
      for (const label of ['a', 'gateway/idempotency/response', 'é'.repeat(300)]) expect(deriver.derive(label).equals(deriveKey(secret, label))).toBe(true);
    }
  });

  it('given parts that concatenate alike, when digested, then the names differ', () => {
    const key = deriveKey('s'.repeat(32), 'names');
    expect(keyedDigest(key, 'a:b', 'c')).not.toBe(keyedDigest(key, 'a', 'b:c'));
    expect(keyedDigest(key, 'a', 'b')).toBe(keyedDigest(key, 'a', 'b'));
    expect(keyedDigest(key, 'a')).not.toBe(keyedDigest(deriveKey('t'.repeat(32), 'names'), 'a'));
    expect(keyedDigest(key, 'a')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('seal and open (AES-256-GCM)', () => {
  const key = createSecretKey(randomBytes(32));

  it('given a sealed value, when opened with the same key and context, then the plaintext comes back', () => {
    const sealed = seal(key, 'whsec_abc', 'endpoint:wh_1');
    expect(sealed).not.toContain('whsec');
    expect(open(key, sealed, 'endpoint:wh_1').toString()).toBe('whsec_abc');
    expect(seal(key, 'whsec_abc', 'endpoint:wh_1')).not.toBe(sealed); // fresh nonce every time
  });

  it('given more seals than one read of nonces serves, when sealed, then every nonce differs and every value opens', () => {
    const sealed = Array.from({ length: 1000 }, (_, i) => seal(key, `value ${i}`, 'ctx'));
    const nonces = sealed.map((value) => Buffer.from(value, 'base64url').subarray(0, 12).toString('hex'));
    expect(new Set(nonces).size).toBe(1000);
    expect(sealed.map((value) => open(key, value, 'ctx').toString())).toEqual(Array.from({ length: 1000 }, (_, i) => `value ${i}`));
  });

  it('given a sealed value, when the key, the context or a byte differs, then it refuses to open', () => {
    const sealed = seal(key, 'whsec_abc', 'endpoint:wh_1');
    expect(() => open(createSecretKey(randomBytes(32)), sealed, 'endpoint:wh_1')).toThrow(SealError);
    expect(() => open(key, sealed, 'endpoint:wh_2')).toThrow(SealError);
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[14] ^= 1;
    expect(() => open(key, bytes.toString('base64url'), 'endpoint:wh_1')).toThrow(SealError);
    expect(() => open(key, 'abc', 'endpoint:wh_1')).toThrow(SealError);
  });
});

describe('KeyRing', () => {
  it('given two keys, when sealing, then the first key seals and a ring holding either key id opens what it sealed', () => {
    const k1 = key32();
    const k2 = key32();
    const old = KeyRing.parse(`k1:${k1}`) as KeyRing;
    const rotated = KeyRing.parse(`k2:${k2}, k1:${k1}`) as KeyRing;
    const sealedByOld = old.seal('whsec_x', 'ctx');
    expect(KeyRing.keyIdOf(sealedByOld)).toBe('k1');
    expect(rotated.open(sealedByOld, 'ctx')).toBe('whsec_x');
    const sealedByNew = rotated.seal('whsec_x', 'ctx');
    expect(KeyRing.keyIdOf(sealedByNew)).toBe('k2');
    expect(rotated.currentId).toBe('k2');
    expect(rotated.ids).toEqual(['k2', 'k1']);
    expect(() => old.open(sealedByNew, 'ctx')).toThrow('sealed under key k2, which is not configured');
    expect(KeyRing.keyIdOf('whsec_plain')).toBeUndefined();
  });

  it('given a malformed list, when parsed, then it says what is wrong', () => {
    expect(KeyRing.parse('')).toMatch(/<key id>:<base64 of 32 bytes>/);
    expect(KeyRing.parse(`:${key32()}`)).toMatch(/key id of 1-32/);
    expect(KeyRing.parse(`k1:${randomBytes(16).toString('base64')}`)).toBe('key k1 must be 32 bytes in base64 (e.g. openssl rand -base64 32)');
    expect(KeyRing.parse(`k1:${key32()},k1:${key32()}`)).toBe('key id k1 appears twice');
    expect(KeyRing.parse(`k1:${Buffer.alloc(32).toString('base64')}`)).toBe('key k1 is not random (too few distinct bytes; e.g. openssl rand -base64 32)');
  });
});

describe('secret rules in configuration', () => {
  class Sample {
    @IsStrongSecret()
    SERVER_SECRET!: string;

    @IsKeyRing()
    KEYS!: string;
  }
  const keys = `k1:${key32()}`;

  it('given a short, placeholder or repetitive secret, when validated, then it is refused with the reason', () => {
    expect(weakSecretReason('a1B2c3D4'.repeat(4))).toBeUndefined();
    expect(weakSecretReason('short')).toMatch(/at least 32 characters/);
    expect(weakSecretReason('change-me-server-secret-please-1234')).toMatch(/looks like a placeholder/);
    expect(weakSecretReason('${SERVER_SECRET:?set SERVER_SECRET in .env}')).toMatch(/looks like a placeholder/);
    expect(weakSecretReason('ab'.repeat(20))).toMatch(/looks like a placeholder/);
  });

  it('given a config class, when loaded, then each bad variable is named with its rule', () => {
    expect(loadConfig(Sample, { SERVER_SECRET: randomBytes(24).toString('base64'), KEYS: keys }).KEYS).toBe(keys);
    let error: ConfigError | undefined;
    try {
      loadConfig(Sample, { SERVER_SECRET: 'x', KEYS: 'k1:short' });
    } catch (thrown) {
      error = thrown as ConfigError;
    }
    expect(error?.problems).toEqual([
      'SERVER_SECRET is invalid: must be at least 32 characters; must be 32+ random characters, e.g. openssl rand -hex 32',
      'KEYS is invalid: key k1 must be 32 bytes in base64 (e.g. openssl rand -base64 32) (the first key encrypts, all decrypt; e.g. k1:$(openssl rand -base64 32))',
    ]);
    expect(() => loadConfig(Sample, {})).toThrow(/SERVER_SECRET is required \(must be 32\+ random characters/);
  });
});
