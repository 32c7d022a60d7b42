import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error';

/** Deeper bodies are refused: nothing in the API nests this far, and deep values are a stack-exhaustion risk downstream. */
export const MAX_BODY_DEPTH = 32;

const NOT_JSON = 'Validation failed: body is not valid JSON';
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The only body parser: JSON objects, checked once at the edge for what no
 * service should have to guard against: prototype-pollution keys, excessive
 * nesting, NUL characters and unpaired surrogates (Postgres refuses both).
 */
export function parseJsonBody(_request: FastifyRequest, text: string, done: (error: Error | null, body?: unknown) => void): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return done(new ApiError(400, NOT_JSON));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return done(new ApiError(400, 'Validation failed: body must be a JSON object'));
  }
  const problem = inspect(body);
  return problem ? done(new ApiError(400, `Validation failed: ${problem}`)) : done(null, body);
}

/** Walks the parsed value without recursion (the nesting is not yet known to be bounded). */
function inspect(root: object): string | undefined {
  const stack: Array<[value: unknown, depth: number, path: string]> = [[root, 1, 'body']];
  while (stack.length > 0) {
    const [value, depth, path] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = badText(value);
      if (problem) return `${path} ${problem}`;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_BODY_DEPTH) return `body must not nest deeper than ${MAX_BODY_DEPTH} levels`;
    for (const [key, child] of Object.entries(value)) {
      if (key === '__proto__' || (key === 'constructor' && typeof child === 'object' && child !== null && 'prototype' in child)) {
        return `${path} must not contain the key ${key === '__proto__' ? key : 'constructor.prototype'}`;
      }
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
