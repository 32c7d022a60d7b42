import { ValidateBy, type ValidationOptions } from 'class-validator';
import { KeyRing } from './key-ring';

/** Words that mark a value someone copied from an example or a template instead of generating. */
const PLACEHOLDER_WORDS = ['change-me', 'changeme', 'change_me', 'example', 'placeholder', 'replace', 'secret', 'password', 'passwd', 'default', 'token-here', '${'];
/**
 * Short placeholder words count only standing alone ("TODO-token", "xxxx-xxxx"):
 * a random 43-character base64url secret contains "todo" or "xxxx" somewhere
 * about once in 13,000 draws and "dummy" once in 900,000, and a generated
 * secret must never be refused by chance. The words above, six characters or
 * more, turn up in one random secret in about 14 million.
 */
const STANDALONE_PLACEHOLDER_WORDS = ['todo', 'xxxx', 'your', 'dummy'];
const STANDALONE_WORD = new RegExp(`(?:^|[^a-z0-9])(${STANDALONE_PLACEHOLDER_WORDS.join('|')})(?![a-z0-9])`);
/** Random values of 32+ characters use far more distinct characters than this; "aaaa…" or "abab…" do not. */
const MIN_DISTINCT_CHARACTERS = 8;
/** A run like "abcdefgh" or "12345678" is typed, not generated. */
const MAX_ASCENDING_RUN = 7;

/**
 * Why a configured secret (operator tokens, SERVER_SECRET, ...) is unfit, or
 * undefined if it looks generated: long enough, no placeholder word, enough
 * distinct characters and no long typed sequence. A deployment that kept a
 * sample value must not start: anyone who read the sample would hold it.
 */
export function weakSecretReason(value: unknown, minLength = 32): string | undefined {
  if (typeof value !== 'string' || value.length < minLength) return `must be at least ${minLength} characters`;
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) return 'looks like a placeholder (too few distinct characters)';
  const lower = value.toLowerCase();
  const word = PLACEHOLDER_WORDS.find((candidate) => lower.includes(candidate)) ?? STANDALONE_WORD.exec(lower)?.[1];
  if (word) return `looks like a placeholder (contains "${word}")`;
  if (longestAscendingRun(lower) > MAX_ASCENDING_RUN) return 'looks like a placeholder (a typed sequence such as "12345678")';
  return undefined;
}

function longestAscendingRun(text: string): number {
  let longest = 1;
  let run = 1;
  for (let i = 1; i < text.length; i += 1) {
    run = text.charCodeAt(i) === text.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** Config rule: a secret of at least `minLength` random-looking characters; the message says how to make one. */
export function IsStrongSecret(minLength = 32, options?: ValidationOptions): PropertyDecorator {
  const howTo = `must be ${minLength}+ random characters, e.g. openssl rand -hex ${minLength}`;
  return ValidateBy(
    {
      name: 'isStrongSecret',
      validator: {
        validate: (value) => weakSecretReason(value, minLength) === undefined,
        defaultMessage: (args) => {
          const reason = weakSecretReason(args?.value, minLength);
          return reason && typeof args?.value === 'string' ? `${reason}; ${howTo}` : howTo;
        },
      },
    },
    options,
  );
}

/** Passwords in connection URLs: the length `openssl rand -hex 12` gives, the least the deployment docs ask for. */
const MIN_URL_PASSWORD_LENGTH = 24;

/** Why the password of a connection URL is unfit, or undefined (also when it has none: a local server without passwords). */
export function weakUrlPasswordReason(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  let password: string;
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    return undefined; // the URL's own rule says what is wrong with it
  }
  return password ? weakSecretReason(password, MIN_URL_PASSWORD_LENGTH) : undefined;
}

/**
 * Config rule for a connection URL (Postgres, NATS, Redis): a password it
 * carries must look generated, so a Secret applied from its template
 * (CHANGE_ME on both sides) does not start; the message never shows it.
 */
export function HasNoWeakPassword(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'hasNoWeakPassword',
      validator: {
        validate: (value) => weakUrlPasswordReason(value) === undefined,
        defaultMessage: (args) =>
          `its password ${weakUrlPasswordReason(args?.value) ?? 'is unfit'}; use ${MIN_URL_PASSWORD_LENGTH}+ random characters, e.g. openssl rand -hex ${MIN_URL_PASSWORD_LENGTH}`,
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
