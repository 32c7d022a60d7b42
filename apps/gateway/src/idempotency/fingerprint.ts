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

/**
 * sha256 of the request's route (method and path) and the canonical JSON of
 * its body, hex: travels with the command as IdempotencyToken.fingerprint.
 * The route is in it because the services that keep a key past Redis (the
 * ledger) compare only the fingerprint: one key sent to two paths with the
 * same body (`/v1/refunds/rf_a/cancel`, then `/rf_b/cancel`) must read as
 * reused with different parameters there too, not replay the other request.
 */
export const requestFingerprint = (route: string, body: unknown): string =>
  createHash('sha256').update(`${route}\n${canonicalJson(body ?? {})}`, 'utf8').digest('hex');
