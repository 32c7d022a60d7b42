import { ValidateBy } from 'class-validator';

export const MIN_OPERATOR_TOKEN_CHARACTERS = 32;

/** Words that mark a token someone copied from an example instead of generating. */
const PLACEHOLDER_WORDS = ['change-me', 'changeme', 'change_me', 'example', 'placeholder', 'replace', 'secret', 'password', 'passwd', 'dummy', 'default', 'token-here', 'your-'];
/** Random tokens of 32+ characters use far more distinct characters than this; "aaaa…" or "abab…" do not. */
const MIN_DISTINCT_CHARACTERS = 8;
/** A run like "abcdefgh" or "12345678" is typed, not generated. */
const MAX_ASCENDING_RUN = 7;

/**
 * Why an operator token (ADMIN_TOKEN, INGEST_TOKEN) is unfit, or undefined if
 * it looks generated: at least 32 characters, no placeholder word, enough
 * distinct characters and no long typed sequence. A deployment that kept a
 * sample value must not start: anyone who read the sample could act as the
 * platform operator or forge deposits' ingest.
 */
export function operatorTokenProblem(token: string): string | undefined {
  if (token.length < MIN_OPERATOR_TOKEN_CHARACTERS) return `must be at least ${MIN_OPERATOR_TOKEN_CHARACTERS} characters`;
  const lower = token.toLowerCase();
  const word = PLACEHOLDER_WORDS.find((candidate) => lower.includes(candidate));
  if (word) return `looks like a placeholder (contains "${word}")`;
  if (new Set(token).size < MIN_DISTINCT_CHARACTERS) return 'looks like a placeholder (too few distinct characters)';
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

const HOW_TO = `must be ${MIN_OPERATOR_TOKEN_CHARACTERS}+ random characters, e.g. openssl rand -hex 32`;

/** Config rule for an operator token; the message says how to make a good one. */
export const IsOperatorToken = () =>
  ValidateBy({
    name: 'isOperatorToken',
    validator: {
      validate: (value) => typeof value === 'string' && operatorTokenProblem(value) === undefined,
      defaultMessage: (args) =>
        typeof args?.value === 'string' ? `${operatorTokenProblem(args.value)}; ${HOW_TO}` : HOW_TO,
    },
  });
