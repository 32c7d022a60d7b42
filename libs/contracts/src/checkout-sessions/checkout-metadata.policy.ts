import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * Limits on a checkout session's metadata (PRODUCT-RULES §4.1: arbitrary key-value
 * pairs, forwarded in every webhook of the session). Stripe's numbers: they
 * keep every event that carries the metadata far below a NATS message
 * (without a cap a 400 KB value made the payment event unpublishable, so a
 * live transfer for that session could never be recorded).
 *
 * Values stay what was accepted before the limits: strings, numbers,
 * booleans, null, and nested objects or arrays; the character limit applies
 * to every string and the key limit to every key, at any depth, and the
 * total bounds the rest. A number must be finite and within ±(2^53 - 1):
 * past that JSON.parse has changed an integer written (1e400 is Infinity,
 * which is stored as null; 2^64 + 1 rounds).
 */
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_CHARACTERS = 40;
export const MAX_METADATA_VALUE_CHARACTERS = 500;
/** Size of the metadata serialised as JSON, in UTF-8 bytes. */
export const MAX_METADATA_BYTES = 8 * 1024;

export const METADATA_MESSAGES = {
  keyCount: `metadata must have at most ${MAX_METADATA_KEYS} keys`,
  keyLength: `metadata keys must be at most ${MAX_METADATA_KEY_CHARACTERS} characters`,
  valueLength: `metadata values must be at most ${MAX_METADATA_VALUE_CHARACTERS} characters`,
  totalSize: `metadata must be at most ${MAX_METADATA_BYTES} bytes (8 KB) as JSON`,
  numbers: 'metadata numbers must be finite and at most 2^53 - 1 either way (send larger ones as strings)',
} as const;

export type MetadataRule = keyof typeof METADATA_MESSAGES;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The limits `metadata` breaks, in a fixed order; none for null, undefined
 * or a value that is not an object (that is the object rule's to refuse).
 */
export function brokenMetadataRules(metadata: unknown): MetadataRule[] {
  if (!isPlainObject(metadata)) return [];
  const broken = new Set<MetadataRule>();
  if (Object.keys(metadata).length > MAX_METADATA_KEYS) broken.add('keyCount');
  // Walks without recursion: the body parser bounds the depth, not this code.
  const pending: unknown[] = [metadata];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (characters(value) > MAX_METADATA_VALUE_CHARACTERS) broken.add('valueLength');
    } else if (typeof value === 'number') {
      // Past these, JSON.parse has already changed the number written (1e400 is Infinity, stored as null; 2^64 + 1 rounds).
      if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) broken.add('numbers');
    } else if (Array.isArray(value)) {
      // One push per item: spreading an array of half a million (a megabyte of JSON) throws RangeError.
      for (const item of value) pending.push(item);
    } else if (isPlainObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (characters(key) > MAX_METADATA_KEY_CHARACTERS) broken.add('keyLength');
        pending.push(child);
      }
    }
  }
  if (Buffer.byteLength(JSON.stringify(metadata), 'utf8') > MAX_METADATA_BYTES) broken.add('totalSize');
  return (Object.keys(METADATA_MESSAGES) as MetadataRule[]).filter((rule) => broken.has(rule));
}

/** Characters as a person counts them (code points), so an emoji is one. */
function characters(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) count -= 1; // a high surrogate starts a pair counted once
  }
  return count;
}

/** One class-validator rule per limit, so each refusal names its own rule in 'Validation failed: ...'. */
export function MetadataLimit(rule: MetadataRule, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: `metadata_${rule}`,
      validator: {
        validate: (value) => !brokenMetadataRules(value).includes(rule),
        defaultMessage: () => METADATA_MESSAGES[rule],
      },
    },
    options,
  );
}
