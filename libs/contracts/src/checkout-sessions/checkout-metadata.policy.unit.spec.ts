import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  brokenMetadataRules,
  MAX_METADATA_BYTES,
  MAX_METADATA_KEY_CHARACTERS,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_CHARACTERS,
  METADATA_MESSAGES,
} from './checkout-metadata.policy';
import { CreateCheckoutSessionBody } from './create-checkout-session.body';

const keys = (count: number, value: unknown = 'v') => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, value]));
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Metadata of exactly `bytes` bytes of JSON (for any size above a few bytes): keys filled with strings of the longest allowed length. */
const ofSize = (bytes: number) => {
  const metadata: Record<string, string> = {};
  for (let i = 0; jsonBytes(metadata) < bytes; i += 1) {
    const key = `p${String(i).padStart(2, '0')}`;
    metadata[key] = '';
    metadata[key] = 'x'.repeat(Math.min(MAX_METADATA_VALUE_CHARACTERS, bytes - jsonBytes(metadata)));
  }
  return metadata;
};

describe('checkout metadata limits', () => {
  describe('given metadata within every limit', () => {
    it.each([
      ['null', null],
      ['absent', undefined],
      ['empty', {}],
      [`${MAX_METADATA_KEYS} keys`, keys(MAX_METADATA_KEYS)],
      [`a ${MAX_METADATA_KEY_CHARACTERS}-character key`, { ['k'.repeat(MAX_METADATA_KEY_CHARACTERS)]: 'v' }],
      [`a ${MAX_METADATA_VALUE_CHARACTERS}-character value`, { note: 'x'.repeat(MAX_METADATA_VALUE_CHARACTERS) }],
      [`${MAX_METADATA_VALUE_CHARACTERS} emoji (code points, not UTF-16 units)`, { note: '😀'.repeat(MAX_METADATA_VALUE_CHARACTERS) }],
      ['numbers, booleans, null and nested values (accepted before the limits)', { n: 42, b: true, z: null, nested: { cart: ['a', 1] } }],
      [`exactly ${MAX_METADATA_BYTES} bytes`, ofSize(MAX_METADATA_BYTES)],
    ])('when it is %s, then no rule is broken', (_case, metadata) => {
      expect(brokenMetadataRules(metadata)).toEqual([]);
    });
  });

  it('the sized fixtures are the sizes they claim', () => {
    expect([jsonBytes(ofSize(MAX_METADATA_BYTES)), jsonBytes(ofSize(MAX_METADATA_BYTES + 1))]).toEqual([MAX_METADATA_BYTES, MAX_METADATA_BYTES + 1]);
  });

  describe('given metadata over a limit', () => {
    it.each([
      [`${MAX_METADATA_KEYS + 1} keys`, keys(MAX_METADATA_KEYS + 1), ['keyCount']],
      [`a ${MAX_METADATA_KEY_CHARACTERS + 1}-character key`, { ['k'.repeat(MAX_METADATA_KEY_CHARACTERS + 1)]: 'v' }, ['keyLength']],
      ['a long key inside a nested object', { cart: { ['k'.repeat(MAX_METADATA_KEY_CHARACTERS + 1)]: 1 } }, ['keyLength']],
      [`a ${MAX_METADATA_VALUE_CHARACTERS + 1}-character value`, { note: 'x'.repeat(MAX_METADATA_VALUE_CHARACTERS + 1) }, ['valueLength']],
      ['a long string inside an array', { items: ['ok', 'x'.repeat(MAX_METADATA_VALUE_CHARACTERS + 1)] }, ['valueLength']],
      [`${MAX_METADATA_BYTES + 1} bytes`, ofSize(MAX_METADATA_BYTES + 1), ['totalSize']],
      ['the 400 KB value of the report', { blob: 'x'.repeat(400_000) }, ['valueLength', 'totalSize']],
      ['an array of half a million items (a megabyte of JSON)', { items: new Array<number>(500_000).fill(0) }, ['totalSize']],
    ])('when it has %s, then that rule is broken', (_case, metadata, rules) => {
      expect(brokenMetadataRules(metadata)).toEqual(rules);
    });
  });

  describe('given a create-session body', () => {
    const body = (metadata: unknown) =>
      plainToInstance(CreateCheckoutSessionBody, {
        amount: 100,
        currency: 'cad',
        reference: 'r',
        success_url: 'https://a.example/s',
        cancel_url: 'https://a.example/c',
        metadata,
      });
    const messages = (metadata: unknown) => validateSync(body(metadata)).flatMap((error) => Object.values(error.constraints ?? {}));

    it('when its metadata breaks several limits, then each broken rule has its own message', () => {
      const metadata = { ...keys(MAX_METADATA_KEYS), ['k'.repeat(60)]: 'x'.repeat(9000) };
      expect(messages(metadata).sort()).toEqual(
        [METADATA_MESSAGES.keyCount, METADATA_MESSAGES.keyLength, METADATA_MESSAGES.valueLength, METADATA_MESSAGES.totalSize].sort(),
      );
    });

    it('when its metadata is not an object, then only the object rule speaks', () => {
      expect(messages('x'.repeat(9000))).toEqual(['metadata must be an object of key-value pairs']);
    });

    it('when its metadata is within the limits, then it is valid', () => {
      expect(messages({ cart: '42' })).toEqual([]);
    });
  });
});
