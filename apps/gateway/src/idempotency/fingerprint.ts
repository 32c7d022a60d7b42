import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so two bodies that differ only
 * in key order have the same fingerprint. Bodies reach this point already
 * bounded in depth by the JSON parser.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** sha256 of the canonical JSON of a request body, hex (travels with the command as IdempotencyToken.fingerprint). */
export const bodyFingerprint = (body: unknown): string => createHash('sha256').update(canonicalJson(body ?? {}), 'utf8').digest('hex');
