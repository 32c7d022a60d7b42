import { ValidateBy, type ValidationOptions } from 'class-validator';
import { KeyRing } from './key-ring';

const PLACEHOLDER = /change.?me|placeholder|example|dummy|secret|password|todo|xxxx|\$\{/i;
const RANDOM_HINT = 'e.g. openssl rand -base64 32';

/** Why `value` is not an acceptable secret (too short, or a placeholder rather than random characters), or undefined. */
export function weakSecretReason(value: unknown, minLength = 32): string | undefined {
  if (typeof value !== 'string' || value.length < minLength) return `must be at least ${minLength} random characters (${RANDOM_HINT})`;
  if (PLACEHOLDER.test(value) || new Set(value).size < 8) return `looks like a placeholder: use at least ${minLength} random characters (${RANDOM_HINT})`;
  return undefined;
}

/** Config rule: a secret of at least `minLength` random-looking characters. */
export function IsStrongSecret(minLength = 32, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStrongSecret',
      validator: {
        validate: (value) => weakSecretReason(value, minLength) === undefined,
        defaultMessage: (args) => weakSecretReason(args?.value, minLength) ?? 'must be a strong secret',
      },
    },
    options,
  );
}

/** Config rule: a key ring, `<key id>:<base64 of 32 bytes>[,...]` (see KeyRing). */
export function IsKeyRing(options?: ValidationOptions): PropertyDecorator {
  const problem = (value: unknown): string | undefined => {
    const parsed = typeof value === 'string' ? KeyRing.parse(value) : 'must be <key id>:<base64 of 32 bytes>, comma-separated';
    return typeof parsed === 'string' ? `${parsed} (the first key encrypts, all decrypt; e.g. k1:$(openssl rand -base64 32))` : undefined;
  };
  return ValidateBy(
    {
      name: 'isKeyRing',
      validator: {
        validate: (value) => problem(value) === undefined,
        defaultMessage: (args) => problem(args?.value) ?? 'must be a key ring',
      },
    },
    options,
  );
}
