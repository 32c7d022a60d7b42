import type { KeyExportOptions, KeyObject, createPublicKey, verify } from 'node:crypto';
import { LruMap } from '@pp/kernel';

/** The two functions of node:crypto that mailauth parses DKIM keys with. */
export interface KeyParsingFunctions {
  createPublicKey: typeof createPublicKey;
  verify: typeof verify;
}

/** Distinct keys remembered: only trusted domains' keys are ever looked up (dkim-resolver.ts), a handful at most. */
const REMEMBERED_KEYS = 64;

/**
 * Makes `lib` (node:crypto of one authentication worker thread) remember the
 * public keys it parses. mailauth parses the signer's key from its DNS text
 * for every message (`createPublicKey` of the DER bytes), exports it to PEM
 * and hands the PEM to `crypto.verify`, which parses it again: that parsing
 * was over a third of a verification's CPU (docs/PERFORMANCE.md), while the
 * key itself changes a few times a year. A parsed key is an immutable
 * KeyObject, so the same input bytes may be answered with the one parsed
 * before: the cache is keyed by the whole input, never by the DNS name, so a
 * rotated or revoked key (new DNS text) is parsed afresh. Only the two forms
 * mailauth uses are remembered (DER in a Buffer with its format and type, and
 * a PEM string); any other input, and any input that fails to parse, goes to
 * node:crypto as it is, so errors are unchanged. mailauth also exports the
 * parsed key to PEM for every message, which took as much of a worker's CPU
 * as the verification itself (docs/PERFORMANCE.md): a remembered key keeps
 * its PEM forms too (rememberPemExports).
 *
 * Installed in the worker thread only (notice-authentication.worker.ts): a
 * worker has its own module instances, so the service's main thread keeps
 * node:crypto untouched.
 */
export function rememberParsedPublicKeys(lib: KeyParsingFunctions): void {
  const parse = lib.createPublicKey;
  const verifyWith = lib.verify;
  const parsed = new LruMap<string, KeyObject>(REMEMBERED_KEYS);

  const remembered = (cacheKey: string, input: Parameters<typeof createPublicKey>[0]): KeyObject =>
    parsed.getOrSet(cacheKey, () => rememberPemExports(parse(input)));

  lib.createPublicKey = (input) => {
    const cacheKey = cacheKeyOf(input);
    return cacheKey === undefined ? parse(input) : remembered(cacheKey, input);
  };

  lib.verify = ((algorithm: unknown, data: unknown, key: unknown, signature: unknown, ...callback: unknown[]) => {
    let keyObject: KeyObject | undefined;
    if (typeof key === 'string') {
      try {
        keyObject = remembered(`pem:${key}`, key);
      } catch {
        // A PEM that does not parse is left to crypto.verify, which then fails with its own error.
      }
    }
    return (verifyWith as (...args: unknown[]) => unknown)(algorithm, data, keyObject ?? key, signature, ...callback);
  }) as typeof verify;
}

/**
 * Makes `key.export` answer a PEM form it has exported before without
 * exporting it again. A KeyObject never changes, and a PEM is a string,
 * which no caller can alter; any other form or option (DER's Buffer, JWK, a
 * cipher) and any export that fails go to node:crypto every time.
 */
function rememberPemExports(key: KeyObject): KeyObject {
  const exportFresh = key.export.bind(key) as (options?: unknown) => unknown;
  const pemByType = new Map<string, string>();
  const exportRemembered = (options?: KeyExportOptions<'pem'>): unknown => {
    const plainPem = options?.format === 'pem' && Object.keys(options).every((name) => name === 'format' || name === 'type');
    if (!plainPem) return exportFresh(options);
    let pem = pemByType.get(options.type);
    if (pem === undefined) {
      const exported = exportFresh(options);
      if (typeof exported !== 'string') return exported;
      pem = exported;
      pemByType.set(options.type, pem);
    }
    return pem;
  };
  Object.defineProperty(key, 'export', { value: exportRemembered });
  return key;
}

/** The input's cache key, for the forms mailauth passes; undefined for anything else. */
function cacheKeyOf(input: Parameters<typeof createPublicKey>[0]): string | undefined {
  if (typeof input === 'string') return `pem:${input}`;
  if (typeof input !== 'object' || input === null || !('key' in input) || !('format' in input)) return undefined;
  const { key, format, type } = input as { key: unknown; format: unknown; type?: unknown };
  if (format !== 'der' || (type !== 'spki' && type !== 'pkcs1') || !Buffer.isBuffer(key)) return undefined;
  return `der:${type}:${key.toString('base64')}`;
}
