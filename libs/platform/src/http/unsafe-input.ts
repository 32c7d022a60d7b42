/** Deeper values are refused: nothing the apps take nests this far, and deep values are a stack-exhaustion risk downstream. */
export const MAX_INPUT_DEPTH = 32;

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Keys an object reserves: `__proto__`, `constructor` and every other name
 * on Object.prototype (`toString`, `hasOwnProperty` ...), and `prototype`.
 * Nest's validation pipe deletes `constructor` and `prototype` keys and
 * class-transformer skips the others, so a body or query holding one would
 * lose it without a word (a session's metadata key, an unknown field that
 * should have been refused): they are refused instead.
 */
const isReservedKey = (key: string): boolean => key === 'prototype' || key in Object.prototype;

/**
 * What no service should have to guard against in a value a request brought
 * (its parsed body, its query): keys objects reserve (prototype pollution
 * among them), excessive nesting, NUL characters and unpaired surrogates
 * (Postgres refuses both). Answers the first problem found, naming where it
 * is under `name`, or undefined.
 */
export function unsafeInputProblem(root: object, name: string): string | undefined {
  // Walked without recursion: the nesting is not yet known to be bounded.
  const stack: Array<[value: unknown, depth: number, path: string]> = [[root, 1, name]];
  while (stack.length > 0) {
    const [value, depth, path] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = badText(value);
      if (problem) return `${path} ${problem}`;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_INPUT_DEPTH) return `${name} must not nest deeper than ${MAX_INPUT_DEPTH} levels`;
    for (const [key, child] of Object.entries(value)) {
      if (isReservedKey(key)) return `${path} must not contain the key ${key}, a name objects reserve`;
      const problem = badText(key);
      if (problem) return `a key in ${path} ${problem}`;
      stack.push([child, depth + 1, Array.isArray(value) ? `${path}[${key}]` : `${path}.${shorten(key)}`]);
    }
  }
  return undefined;
}

/** Keys are echoed in messages, so long ones are cut. */
const shorten = (key: string): string => (key.length > 40 ? `${key.slice(0, 40)}…` : key);

function badText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (UNPAIRED_SURROGATE.test(text)) return 'must be valid Unicode (unpaired surrogate)';
  return undefined;
}
