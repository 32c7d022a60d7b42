import { readFileSync } from 'node:fs';
import { Resolver } from 'node:dns/promises';
import { withinDeadline } from '@pp/kernel';
import type { DkimResolver } from './authentication.types';

const DNS_TIMEOUT_MS = 2000;

/**
 * The longest one key lookup may take, whatever the resolver's retries and
 * back-off add up to. It then fails as DNS trouble (ETIMEOUT: mailauth's
 * temperror, retried later), never as a verdict; the authentication deadline
 * (INGEST_AUTH_TIMEOUT_MS) is kept above it.
 */
export const KEY_LOOKUP_DEADLINE_MS = 4000;

/**
 * The resolver's refusals of the name itself: no server was asked, and asking
 * again will not help. mailauth takes any code but ENOTFOUND and ENODATA for
 * DNS trouble and the notice would be retried for a day, so these are a
 * missing key.
 */
const NAME_REFUSED = new Set(['EBADNAME', 'EBADQUERY']);

/** Real DNS, with a short timeout so a slow resolver cannot hold a notice for long. */
export function dnsResolver(): DkimResolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
  return async (name, rrtype) => {
    if (rrtype !== 'TXT') throw Object.assign(new Error(`no ${rrtype} lookups for DKIM`), { code: 'ENODATA' });
    try {
      return await withDeadline(resolver.resolveTxt(name), KEY_LOOKUP_DEADLINE_MS, name);
    } catch (error) {
      if (NAME_REFUSED.has((error as NodeJS.ErrnoException).code ?? '')) throw Object.assign(new Error(`${name}: ${(error as Error).message}`), { code: 'ENOTFOUND' });
      throw error;
    }
  };
}

/** The lookup's answer, or an ETIMEOUT error (DNS trouble to mailauth) once `ms` have passed without one. */
export function withDeadline<T>(lookup: Promise<T>, ms: number, name: string): Promise<T> {
  return withinDeadline(lookup, ms, () => Object.assign(new Error(`${name}: no DNS answer within ${ms} ms`), { code: 'ETIMEOUT' }));
}

/**
 * Looks up only the keys of trusted signing domains; any other name is
 * answered as missing without a query. Only a trusted signature's result
 * counts (notice-authenticator.ts), so verdicts are unchanged, while the
 * lookups a message can cause, and the time they take within the
 * authentication deadline, no longer depend on the domains a sender writes
 * into its signatures.
 */
export function trustedKeysOnly(resolver: DkimResolver, trustedDomains: readonly string[]): DkimResolver {
  const suffixes = trustedDomains.map((domain) => `._domainkey.${domain.toLowerCase()}`);
  return async (name, rrtype) => {
    const key = name.toLowerCase().replace(/\.$/, '');
    if (!suffixes.some((suffix) => key.endsWith(suffix))) throw Object.assign(new Error(`${name} is not a trusted domain's key`), { code: 'ENOTFOUND' });
    // A selector can make the name longer than DNS allows: no such key can exist (and a resolver would refuse it).
    if (!fitsDns(key)) throw Object.assign(new Error(`${name} is longer than a DNS name can be`), { code: 'ENOTFOUND' });
    return resolver(name, rrtype);
  };
}

/** At most 253 characters, each label 1 to 63 (RFC 1035 §2.3.4, without the trailing dot). */
const fitsDns = (name: string): boolean => name.length <= 253 && name.split('.').every((label) => label.length > 0 && label.length <= 63);

/**
 * Answers DKIM key lookups from a fixed map instead of DNS (tests, air-gapped
 * sites). Names missing from the map do not exist: no lookup ever leaves the machine.
 */
export function overridesResolver(records: Readonly<Record<string, string>>): DkimResolver {
  const byName = new Map(Object.entries(records).map(([name, value]) => [name.toLowerCase().replace(/\.$/, ''), value]));
  return async (name, rrtype) => {
    const value = rrtype === 'TXT' ? byName.get(name.toLowerCase().replace(/\.$/, '')) : undefined;
    if (value === undefined) throw Object.assign(new Error(`${name} is not in INGEST_DNS_OVERRIDES`), { code: 'ENOTFOUND' });
    return [[value]];
  };
}

const KEY_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\._domainkey\.[a-z0-9-]+(?:\.[a-z0-9-]+)+\.?$/i;

/** Reads and checks an INGEST_DNS_OVERRIDES file; throws an Error whose message says what is wrong. */
export function loadDnsOverrides(path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read JSON from ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${path} must hold a JSON object { "<selector>._domainkey.<domain>": "v=DKIM1; k=rsa; p=..." }`);
  }
  for (const [name, value] of Object.entries(parsed)) {
    if (!KEY_NAME.test(name)) throw new Error(`${path}: "${name}" is not a <selector>._domainkey.<domain> name`);
    if (typeof value !== 'string' || !/(?:^|;)\s*p=/.test(value)) throw new Error(`${path}: "${name}" must be a DKIM key record string with p=`);
  }
  return parsed as Record<string, string>;
}
